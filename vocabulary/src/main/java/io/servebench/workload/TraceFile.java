package io.servebench.workload;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToIntFunction;

/**
 * {@code trace:PATH[,timeScale=X][,blockSize=N]}: a Mooncake (Bailian) style trace, one request per line,
 * {@code {"timestamp": 27482, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47, ...]}}, with the
 * timestamp in milliseconds from any origin. Requests go in file order; under {@code Profile.TRACE} each is sent at
 * its timestamp's offset from the first line's, times {@code timeScale} (0.5 replays twice as fast).
 *
 * <p>A prompt is built to honour the line's lengths and its shared blocks: each hash id stands for a block of
 * {@code blockSize} tokens (512, Mooncake's) whose text depends on the id alone, so two requests that share ids share
 * that prefix, as the requests they were recorded from did; the last block is cut to the input length, and an input
 * longer than its blocks gets text of its own for the rest. Each block is exact by the token counter; the prompt
 * records the counter's count of the whole. Prompts are built when a request is drawn, never all at once: a trace's
 * prompts together may be larger than the heap.
 */
final class TraceFile {

    static final List<String> OPTIONS = List.of("timeScale", "blockSize");
    static final int DEFAULT_BLOCK_SIZE = 512;
    private static final String SHAPE = "{\"timestamp\": MS, \"input_length\": N, \"output_length\": N[, \"hash_ids\": [...]]}";
    /** Block texts kept: recent blocks recur (a conversation's turns), old ones are rebuilt when they come back. */
    private static final int CACHED_BLOCKS = 4096;

    /** A line as read: its lengths and block ids. */
    private record Line(int inputLength, int outputLength, int[] hashIds) {
    }

    private TraceFile() {
    }

    /**
     * @throws IllegalArgumentException naming the file, the line and what was expected
     */
    static Dataset read(String spec, Path file, SpecOptions options, ToIntFunction<String> tokens) {
        double timeScale = options.positiveNumber("timeScale", 1);
        int blockSize = options.positiveInt("blockSize").orElse(DEFAULT_BLOCK_SIZE);
        List<Line> lines = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        String[] previous = {null};
        JsonLines.read(file, SHAPE, (where, node) -> {
            long timestamp = wholeNumber(where, node, "timestamp", 0);
            if (!times.isEmpty() && timestamp < times.get(times.size() - 1)) {
                throw new IllegalArgumentException(where + ": /timestamp " + timestamp + " is before " + previous[0]
                        + "'s " + times.get(times.size() - 1) + "; expected the lines in time order");
            }
            previous[0] = where.substring(where.lastIndexOf(" line ") + 1);
            times.add(timestamp);
            lines.add(new Line((int) wholeNumber(where, node, "input_length", 1),
                    (int) wholeNumber(where, node, "output_length", 1), hashIds(where, node)));
        });
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("dataset " + spec + " has no request: " + file + " holds no non-blank line");
        }
        long[] arrivals = new long[times.size()];
        for (int i = 0; i < arrivals.length; i++) {
            arrivals[i] = Math.round((times.get(i) - times.get(0)) * 1e6 * timeScale);
        }
        Prompts prompts = new Prompts(blockSize, tokens);
        return Dataset.trace(spec, arrivals, i -> prompts.conversation(i, lines.get(i)),
                lines.stream().mapToInt(Line::inputLength).average().orElseThrow(),
                lines.stream().mapToInt(Line::outputLength).average().orElseThrow());
    }

    private static long wholeNumber(String where, JsonNode line, String field, long least) {
        JsonNode value = line.get(field);
        if (value == null) {
            throw new IllegalArgumentException(where + ": no /" + field + "; expected " + SHAPE);
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() && !"timestamp".equals(field) || value.asLong() < least) {
            throw new IllegalArgumentException(where + ": /" + field + " is " + value + "; expected a whole number of at least "
                    + least);
        }
        return value.asLong();
    }

    private static int[] hashIds(String where, JsonNode line) {
        JsonNode ids = line.get("hash_ids");
        if (ids == null) {
            return new int[0];
        }
        if (!ids.isArray()) {
            throw new IllegalArgumentException(where + ": /hash_ids is " + ids.getNodeType() + "; expected an array of"
                    + " whole numbers");
        }
        int[] result = new int[ids.size()];
        for (int i = 0; i < result.length; i++) {
            JsonNode id = ids.get(i);
            if (!id.isIntegralNumber() || !id.canConvertToInt()) {
                throw new IllegalArgumentException(where + ": /hash_ids/" + i + " is " + id + "; expected a whole number");
            }
            result[i] = id.asInt();
        }
        return result;
    }

    /** Builds the trace's prompts from their blocks, keeping the recent blocks' texts. */
    private static final class Prompts {
        private final int blockSize;
        private final ToIntFunction<String> tokens;
        private final Map<Integer, String> blocks = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, String> eldest) {
                return size() > CACHED_BLOCKS;
            }
        };

        Prompts(int blockSize, ToIntFunction<String> tokens) {
            this.blockSize = blockSize;
            this.tokens = tokens;
        }

        // drawn by one thread at a time (the sender's), but a dataset may be shared by the trials of a run
        synchronized Conversation conversation(int index, Line line) {
            List<String> parts = new ArrayList<>();
            int left = line.inputLength();
            for (int id : line.hashIds()) {
                if (left == 0) {
                    break;
                }
                int length = Math.min(left, blockSize);
                String block = blocks.computeIfAbsent(id, this::block);
                parts.add(length == blockSize ? block : SyntheticLengths.text(blockRandom(id), length, tokens));
                left -= length;
            }
            if (left > 0) {
                // the part no block covers is this request's own
                parts.add(SyntheticLengths.text(new Random(0x7ace_0000_0000L + index), left, tokens));
            }
            String prompt = String.join(" ", parts);
            return new Conversation(prompt, tokens.applyAsInt(prompt), line.outputLength());
        }

        private String block(int id) {
            return SyntheticLengths.text(blockRandom(id), blockSize, tokens);
        }

        private static Random blockRandom(int id) {
            return new Random(0xb10c_0000_0000L ^ id);
        }
    }
}
