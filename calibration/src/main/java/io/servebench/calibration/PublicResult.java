package io.servebench.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.workload.ShareGptShape;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * One published result of a serving benchmark, the simulated engine was never fitted to: what ran (engine, model, GPU,
 * tensor parallelism, precision), under which load, what it measured, and where it was published. The bundled set is
 * {@code public-results.json} beside this class, each case with its source and the lines quoted from it.
 *
 * @param id            a short name
 * @param source        where it was published (a URL, or repository, commit and path)
 * @param engine        {@code vllm}, {@code sglang} or another engine the twin does not stand for
 * @param engineVersion the engine's version where the source states it, else empty
 * @param model         the model's Hugging Face id
 * @param modelClass    {@code dense}, {@code moe} or {@code hybrid}
 * @param gpu           the GPU as the source names it
 * @param tensorParallel GPUs the model is split over
 * @param dtype         the weights' precision ({@code bf16}, {@code fp8}, {@code mxfp4})
 * @param serverFlags   the published serving script's flags beyond the model and its tensor-parallel size, each as
 *                      {@code --name=value} (e.g. {@code --max-model-len=32768}); empty for the engine's defaults
 * @param draftAcceptance with speculative decoding, the share of drafts whose token at each position was accepted, as
 *                      {@code vllm bench serve} prints it ("Per-position acceptance (%)", as a fraction): a position's
 *                      token counts only where every earlier one was accepted, so the shares do not rise; empty where
 *                      the source prints none ({@link #conditionalAcceptance})
 * @param dataset       {@code sharegpt}, {@code random} or {@code fixed}
 * @param shareGptShape a {@code sharegpt} case's spread of lengths, by the client that drew its sample (the JSON's
 *                      {@code workload.client}: {@link #SHAREGPT_CLIENTS}), else empty
 * @param inputTokens   prompt length of a {@code random} or {@code fixed} workload, else empty
 * @param outputTokens  output length of a {@code random} or {@code fixed} workload, else empty
 * @param inputLengths  where a {@code random} workload's prompts are not all one length, their distribution as the
 *                      client draws them, in a {@code synthetic:} dataset's form (e.g. {@code uniform(1,1000)}:
 *                      {@code sglang.bench_serving}'s random dataset at its default {@code --random-range-ratio 0.0}),
 *                      else empty
 * @param outputLengths the same for the output lengths
 * @param poissonArrivals whether the requests arrived as a Poisson process at {@code requestRate} ({@code vllm bench
 *                      serve}'s and {@code sglang.bench_serving}'s default) rather than evenly spaced ({@code guidellm
 *                      --profile constant}); the JSON's {@code "arrivals": "poisson"}
 * @param concurrency   requests in flight at most (a closed loop, or a cap on an open one), else empty
 * @param requestRate   requests per second, empty for all at once
 * @param requests      requests measured, 0 where the source states none (a single stream's speed)
 * @param totalInputTokens  the prompt tokens of all measured requests as the source prints them ({@code vllm bench
 *                      serve}'s "Total input tokens"), else empty
 * @param totalOutputTokens the tokens generated for them ("Total generated tokens"), else empty: with early stops at
 *                      an end-of-sequence token fewer than the requests asked for
 * @param published     the figures as published, by {@link Figure}
 * @param notes         what the source leaves out or the case assumes
 * @param inReference   whether the case is a block of the reference study the twin is calibrated on (the same
 *                      published run), and so no validation case
 */
public record PublicResult(String id, String source, String engine, Optional<String> engineVersion, String model,
                           String modelClass, String gpu, int tensorParallel, String dtype, List<String> serverFlags,
                           List<Double> draftAcceptance, String dataset, Optional<ShareGptShape> shareGptShape,
                           OptionalInt inputTokens, OptionalInt outputTokens, Optional<String> inputLengths,
                           Optional<String> outputLengths, boolean poissonArrivals, OptionalInt concurrency,
                           OptionalDouble requestRate, int requests, OptionalLong totalInputTokens,
                           OptionalLong totalOutputTokens, Map<Figure, Double> published, String notes,
                           boolean inReference) {

    /** A figure serving benchmarks publish. */
    public enum Figure {
        MEAN_TTFT("meanTtftMs", "mean TTFT (ms)"),
        MEAN_TPOT("meanTpotMs", "mean TPOT (ms)"),
        MEAN_E2E("meanE2eMs", "mean latency (ms)"),
        OUTPUT_THROUGHPUT("outputTokensPerS", "output tok/s"),
        TOTAL_THROUGHPUT("totalTokensPerS", "total tok/s");

        final String field;
        final String label;

        Figure(String field, String label) {
            this.field = field;
            this.label = label;
        }

        /** How a table heads it. */
        public String label() {
            return label;
        }

        /**
         * How many times faster the twin was than the published engine on this figure, from the twin's figure over the
         * published one: that ratio for a throughput, its inverse for a time (a latency half the published one is twice
         * as fast).
         */
        public double speedRatio(double twinOverPublished) {
            return switch (this) {
                case MEAN_TTFT, MEAN_TPOT, MEAN_E2E -> 1 / twinOverPublished;
                case OUTPUT_THROUGHPUT, TOTAL_THROUGHPUT -> twinOverPublished;
            };
        }
    }

    public PublicResult {
        published = Collections.unmodifiableMap(new LinkedHashMap<>(published));
        serverFlags = List.copyOf(serverFlags);
        draftAcceptance = List.copyOf(draftAcceptance);
    }

    /**
     * The printed acceptance as the twin takes it ({@code --sim-acceptance-rate}): per position, the chance its token is
     * accepted given every earlier one was, the position's share over the one before it's.
     */
    public List<Double> conditionalAcceptance() {
        List<Double> conditional = new ArrayList<>();
        double earlier = 1;
        for (double share : draftAcceptance) {
            conditional.add(share / earlier);
            earlier = share;
        }
        return conditional;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The clients a ShareGPT case may name, with the spread of their samples: vLLM's draws ShareGPT's first turns of 4
     * tokens or more, prompts up to 1,024 and both up to 2,048 tokens; SGLang's {@code bench_serving} draws the same
     * first turns at random with looser length caps, rehearsed with vLLM's spread; guidellm's, the reference study's
     * client, with the bundled set's.
     */
    static final Map<String, ShareGptShape> SHAREGPT_CLIENTS = Map.of(
            "vllm bench serve", ShareGptShape.BENCHMARK_CLIENT,
            "vllm benchmark_serving.py", ShareGptShape.BENCHMARK_CLIENT,
            "sglang.bench_serving", ShareGptShape.BENCHMARK_CLIENT,
            "guidellm", ShareGptShape.SYNTHETIC);

    /** The cases bundled with ServeBench, in the file's order. */
    public static List<PublicResult> bundled() {
        try (InputStream in = PublicResult.class.getResourceAsStream("public-results.json")) {
            if (in == null) {
                throw new IllegalStateException("public-results.json is missing from the class path");
            }
            return read(JSON.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled public results", e);
        }
    }

    /**
     * The cases of a JSON array in {@code public-results.json}'s form.
     *
     * @throws IllegalArgumentException naming the case and the field that is missing or of the wrong kind
     */
    static List<PublicResult> read(JsonNode array) {
        if (!array.isArray()) {
            throw new IllegalArgumentException("public results: expected a JSON array of cases");
        }
        List<PublicResult> cases = new ArrayList<>();
        for (JsonNode c : array) {
            String id = text(c, "id", "(no id)");
            JsonNode w = c.path("workload");
            JsonNode r = c.path("results");
            Map<Figure, Double> published = new LinkedHashMap<>();
            for (Figure f : Figure.values()) {
                if (r.path(f.field).isNumber()) {
                    published.put(f, r.get(f.field).asDouble());
                }
            }
            JsonNode rate = w.path("requestRate");
            cases.add(new PublicResult(id, text(c, "source", id), text(c, "engine", id),
                    c.path("engineVersion").isTextual() ? Optional.of(c.get("engineVersion").asText()) : Optional.empty(),
                    text(c, "model", id), text(c, "modelClass", id), text(c, "gpu", id),
                    c.path("tensorParallel").asInt(1), text(c, "dtype", id), flags(c, id), acceptance(c, id),
                    text(w, "dataset", id),
                    shareGptShape(w, id), whole(w, "inputTokens"), whole(w, "outputTokens"),
                    optionalText(w, "inputLengths"), optionalText(w, "outputLengths"), arrivals(w, id),
                    whole(w, "concurrency"),
                    rate.isNumber() ? OptionalDouble.of(rate.asDouble()) : OptionalDouble.empty(),
                    w.path("requests").asInt(0), count(w, "totalInputTokens"), count(w, "totalOutputTokens"), published,
                    c.path("notes").asText(""), c.path("inReference").asBoolean(false)));
        }
        return cases;
    }

    private static String text(JsonNode node, String field, String id) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new IllegalArgumentException("public result " + id + ": \"" + field + "\" must be a non-empty string");
        }
        return v.asText();
    }

    private static Optional<String> optionalText(JsonNode node, String field) {
        return node.path(field).isTextual() ? Optional.of(node.get(field).asText()) : Optional.empty();
    }

    /** A {@code sharegpt} workload's spread of lengths, by its {@code "client"}; empty for other datasets. */
    private static Optional<ShareGptShape> shareGptShape(JsonNode workload, String id) {
        if (!workload.path("dataset").asText().equals("sharegpt")) {
            return Optional.empty();
        }
        ShareGptShape shape = SHAREGPT_CLIENTS.get(workload.path("client").asText());
        if (shape == null) {
            throw new IllegalArgumentException("public result " + id + ": a sharegpt workload needs its client, one of "
                    + new TreeSet<>(SHAREGPT_CLIENTS.keySet()) + ", got " + workload.path("client"));
        }
        return Optional.of(shape);
    }

    /** Whether the workload's {@code "arrivals"} is {@code poisson}; {@code constant} or none is evenly spaced. */
    private static boolean arrivals(JsonNode workload, String id) {
        String arrivals = workload.path("arrivals").asText("constant");
        if (!arrivals.equals("poisson") && !arrivals.equals("constant")) {
            throw new IllegalArgumentException("public result " + id + ": \"arrivals\" must be \"poisson\" or"
                    + " \"constant\", got \"" + arrivals + "\"");
        }
        return arrivals.equals("poisson");
    }

    private static List<String> flags(JsonNode c, String id) {
        JsonNode flags = c.path("serverFlags");
        if (flags.isMissingNode()) {
            return List.of();
        }
        IllegalArgumentException bad = new IllegalArgumentException("public result " + id + ": \"serverFlags\" must be"
                + " an array of flags such as \"--max-model-len=32768\", got " + flags);
        if (!flags.isArray()) {
            throw bad;
        }
        List<String> out = new ArrayList<>();
        for (JsonNode f : flags) {
            if (!f.isTextual() || !f.asText().startsWith("--")) {
                throw bad;
            }
            out.add(f.asText());
        }
        return out;
    }

    /** {@code "draftAcceptancePerPosition"}: the printed percentages, above 0, at most 100, none above the one before. */
    private static List<Double> acceptance(JsonNode c, String id) {
        JsonNode printed = c.path("draftAcceptancePerPosition");
        if (printed.isMissingNode()) {
            return List.of();
        }
        List<Double> shares = new ArrayList<>();
        double earlier = 100;
        for (JsonNode p : printed) {
            if (!p.isNumber() || p.asDouble() <= 0 || p.asDouble() > earlier) {
                throw new IllegalArgumentException("public result " + id + ": \"draftAcceptancePerPosition\" must list"
                        + " the printed per-position acceptance in percent, each above 0 and none above the one before"
                        + " (a position counts only where the earlier ones were accepted), got " + printed);
            }
            earlier = p.asDouble();
            shares.add(earlier / 100);
        }
        if (!printed.isArray() || shares.isEmpty()) {
            throw new IllegalArgumentException("public result " + id + ": \"draftAcceptancePerPosition\" must be a"
                    + " non-empty array of percentages, got " + printed);
        }
        return shares;
    }

    private static OptionalLong count(JsonNode node, String field) {
        return node.path(field).canConvertToLong() ? OptionalLong.of(node.get(field).asLong()) : OptionalLong.empty();
    }

    private static OptionalInt whole(JsonNode node, String field) {
        return node.path(field).canConvertToInt() ? OptionalInt.of(node.get(field).asInt()) : OptionalInt.empty();
    }
}
