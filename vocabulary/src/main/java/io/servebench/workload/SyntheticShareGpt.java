package io.servebench.workload;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToIntFunction;

/**
 * Made-up conversations in ShareGPT's shape, for runs on machines without the real file. Prompt and
 * reply lengths are log-normal, as ShareGPT's are (a long right tail), with means near the
 * reference study's workload (342 prompt and 281 reply tokens by Qwen's tokenizer; this set holds 321 and 276 by the
 * simulated engine's); the text is
 * words from a small vocabulary, so it means nothing. The same seed always gives the same set.
 */
final class SyntheticShareGpt {

    /** Conversations in the set; enough that a 1000-request trial rarely repeats one. */
    public static final int SIZE = 1000;
    static final long SEED = 20260401L;

    private static final double PROMPT_MEDIAN = 250, PROMPT_SIGMA = 0.80;
    private static final double REPLY_MEDIAN = 215, REPLY_SIGMA = 0.70;
    private static final String[] WORDS = ("the model server token batch cache prefix request latency engine queue "
            + "prompt reply user answer question kernel memory tensor layer head attention decode prefill schedule "
            + "throughput rate stream chunk window sample metric noise variant trial study report flag value option "
            + "group baseline result table plot figure speed time second minute hour data set file line word text "
            + "please explain how why what when where which could would should about with from into over under").split(" ");

    private SyntheticShareGpt() {
    }

    /** The bundled set as a dataset, lengths counted with {@code tokenCounter}. */
    public static Dataset dataset(ToIntFunction<String> tokenCounter) {
        List<Conversation> conversations = new ArrayList<>(SIZE);
        for (String[] turn : turns()) {
            int promptTokens = tokenCounter.applyAsInt(turn[0]);
            int outputTokens = tokenCounter.applyAsInt(turn[1]);
            conversations.add(new Conversation(turn[0], promptTokens, outputTokens));
        }
        return new Dataset(Datasets.SYNTHETIC_SHAREGPT, conversations);
    }

    /** Writes the set as a ShareGPT-format JSON file, readable by {@link ShareGptFile} and other tools. */
    public static void write(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ArrayNode root = json.createArrayNode();
        int id = 0;
        for (String[] turn : turns()) {
            ObjectNode entry = root.addObject();
            entry.put("id", "synthetic-" + id++);
            ArrayNode conversation = entry.putArray("conversations");
            conversation.addObject().put("from", "human").put("value", turn[0]);
            conversation.addObject().put("from", "gpt").put("value", turn[1]);
        }
        json.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);
    }

    private static List<String[]> turns() {
        Random random = new Random(SEED);
        List<String[]> turns = new ArrayList<>(SIZE);
        for (int i = 0; i < SIZE; i++) {
            int promptWords = length(random, PROMPT_MEDIAN, PROMPT_SIGMA, ShareGptFile.MAX_PROMPT_TOKENS);
            int replyWords = length(random, REPLY_MEDIAN, REPLY_SIGMA, ShareGptFile.MAX_TOTAL_TOKENS - promptWords);
            turns.add(new String[] {text(random, promptWords, true), text(random, replyWords, false)});
        }
        return turns;
    }

    /** A log-normal length, at least {@link ShareGptFile#MIN_TOKENS} and at most {@code max} words. */
    private static int length(Random random, double median, double sigma, int max) {
        double sample = median * Math.exp(sigma * random.nextGaussian());
        return (int) Math.max(ShareGptFile.MIN_TOKENS, Math.min(max, Math.round(sample)));
    }

    /**
     * {@code count} made-up conversations of this set's shape (log-normal prompt and reply lengths with its spreads)
     * whose mean prompt and reply lengths in tokens are {@code meanPromptTokens} and {@code meanOutputTokens}, to within
     * rounding: for running a published benchmark of which only the token totals are known. The lengths are drawn
     * first and scaled together to those means, so the sample's own spread does not move the totals; then the prompts
     * are written, each exactly its length by {@code tokens}.
     */
    static Dataset shaped(double meanPromptTokens, double meanOutputTokens, int count, ToIntFunction<String> tokens) {
        Random random = new Random(SEED);
        double[] prompt = new double[count];
        double[] reply = new double[count];
        for (int i = 0; i < count; i++) {
            prompt[i] = Math.exp(PROMPT_SIGMA * random.nextGaussian());
            reply[i] = Math.exp(REPLY_SIGMA * random.nextGaussian());
        }
        return SyntheticLengths.scaledTo(Datasets.SYNTHETIC_SHAREGPT, prompt, reply, meanPromptTokens, meanOutputTokens,
                random, tokens);
    }

    /** A word of the vocabulary, drawn from {@code random}: one token to the simulated engine's tokenizer. */
    static String word(Random random) {
        return WORDS[random.nextInt(WORDS.length)];
    }

    /** {@code tokens} words in sentences of 8 to 20; each sentence ends in a period, which counts as a token too. */
    private static String text(Random random, int tokens, boolean question) {
        StringBuilder sb = new StringBuilder(tokens * 7);
        int left = tokens;
        while (left > 0) {
            int sentence = Math.min(left, 8 + random.nextInt(13));
            for (int w = 0; w < sentence - 1; w++) {
                sb.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
            }
            left -= sentence;
            if (sentence == 1) {
                sb.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
                continue;
            }
            sb.setLength(sb.length() - 1);
            sb.append(left == 0 && question ? "?" : ".").append(' ');
        }
        return sb.toString().strip();
    }
}
