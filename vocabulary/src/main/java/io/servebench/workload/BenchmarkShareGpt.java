package io.servebench.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToIntFunction;

/**
 * The ShareGPT requests vLLM's benchmark client sends, as lengths: {@code sharegpt-benchmark-sample.csv} holds the
 * prompt and output tokens of each of the 500 requests of a published {@code benchmark_serving.py} run (seed 0, its
 * default), in sending order, read from the run's own result file (the file names its source). The client keeps a
 * conversation's first turn when prompt and reply have 4 tokens or more, the prompt 1,024 at most and both 2,048 at
 * most, so half its prompts are under 76 tokens and a third of its replies under 50, far from a log-normal's few.
 */
final class BenchmarkShareGpt {

    static final String RESOURCE = "sharegpt-benchmark-sample.csv";
    private static final List<int[]> SAMPLE = read();

    private BenchmarkShareGpt() {
    }

    /**
     * {@code count} made-up conversations with the sample's lengths, in its order (beyond its 500, drawn from it at
     * random with a fixed seed), scaled together to these means in tokens ({@link SyntheticLengths#scaledTo}): the
     * lengths were counted with one model's tokenizer, a published run's totals with its own.
     */
    static Dataset shaped(double meanPromptTokens, double meanOutputTokens, int count, ToIntFunction<String> tokens) {
        Random random = new Random(SyntheticShareGpt.SEED);
        double[] prompt = new double[count];
        double[] reply = new double[count];
        for (int i = 0; i < count; i++) {
            int[] lengths = SAMPLE.get(i < SAMPLE.size() ? i : random.nextInt(SAMPLE.size()));
            prompt[i] = lengths[0];
            reply[i] = lengths[1];
        }
        return SyntheticLengths.scaledTo("sharegpt-benchmark-sample", prompt, reply, meanPromptTokens,
                meanOutputTokens, random, tokens);
    }

    /** The sample: one {@code prompt,output} line a request; lines starting with {@code #} say where it came from. */
    static List<int[]> read() {
        try (InputStream in = BenchmarkShareGpt.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            return read(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /**
     * The lengths of {@code lines} in the resource's form.
     *
     * @throws IllegalStateException naming the line that is not two positive whole numbers
     */
    static List<int[]> read(BufferedReader lines) throws IOException {
        List<int[]> sample = new ArrayList<>();
        int number = 0;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            number++;
            if (!line.isBlank() && !line.startsWith("#")) {
                sample.add(lengths(line, number));
            }
        }
        return List.copyOf(sample);
    }

    private static int[] lengths(String line, int number) {
        String[] fields = line.split(",");
        try {
            if (fields.length == 2) {
                int prompt = Integer.parseInt(fields[0].strip());
                int output = Integer.parseInt(fields[1].strip());
                if (prompt > 0 && output > 0) {
                    return new int[] {prompt, output};
                }
            }
        } catch (NumberFormatException e) {
            // named below with the line
        }
        throw new IllegalStateException(RESOURCE + " line " + number + ": expected two positive whole numbers, prompt"
                + " and output tokens, as 'prompt,output', got '" + line + "'");
    }
}
