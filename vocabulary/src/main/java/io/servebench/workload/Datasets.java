package io.servebench.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.ToIntFunction;

/** Turns a study's {@code dataset} setting into a {@link Dataset}, by its {@link DatasetKind}. */
public final class Datasets {

    /** The bundled made-up conversations ({@link SyntheticShareGpt}). */
    public static final String SYNTHETIC_SHAREGPT = DatasetKind.SYNTHETIC_SHAREGPT.id();

    /** The unit of a rate of requests. */
    public static final String REQUEST_RATE_UNIT = "req/s";
    /** The unit of a rate of multi-turn conversations, whose later turns follow their answers. */
    public static final String CONVERSATION_RATE_UNIT = "conversations/s";

    private Datasets() {
    }

    /**
     * @param spec {@code KIND:LOCATION[,OPTIONS]} or {@code KIND[:OPTIONS]} of a {@link DatasetKind}
     * @throws IllegalArgumentException naming the spec, what is wrong and the accepted forms
     */
    public static Dataset resolve(String spec, ToIntFunction<String> tokenCounter) {
        return resolve(spec, tokenCounter, () -> false);
    }

    /**
     * As {@link #resolve(String, ToIntFunction)}, given up as soon as {@code stopped} says so: a set of long prompts,
     * or a large file counted by a real tokenizer, can take minutes to build, and a run asked to stop must not wait for
     * it. {@code stopped} is asked before each count while the set is made, not when a trace's requests, or the prompts
     * of a set that writes them as they are drawn, are counted later ({@link Dataset#prepare}).
     *
     * @throws CancellationException naming the spec, when {@code stopped} said so before the set was built
     */
    public static Dataset resolve(String spec, ToIntFunction<String> tokenCounter, BooleanSupplier stopped) {
        String problem = problem(spec);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        Tokenized tokenized = Tokenized.of(spec);
        ToIntFunction<String> counter = tokenized.tokenizer() == null ? tokenCounter
                : HuggingFaceTokens.counter(Path.of(tokenized.tokenizer()));
        // a trace, and a set that writes its prompts as they are drawn, count after the set is made: a stop then is
        // Dataset.prepare's or the load's to handle, not the counter's
        AtomicBoolean built = new AtomicBoolean();
        ToIntFunction<String> tokens = text -> {
            if (!built.get() && stopped.getAsBoolean()) {
                throw new CancellationException("dataset " + spec + ": its building was stopped");
            }
            return counter.applyAsInt(text);
        };
        DatasetKind.Named named = DatasetKind.of(tokenized.spec()).orElseThrow();
        Dataset dataset = named.kind().read(spec, named.rest(), tokens);
        built.set(true);
        return dataset;
    }

    /**
     * The tokenizer {@code spec} names with {@code tokenizer=PATH}, for counting what the server streams back; empty
     * when it names none.
     *
     * @throws IllegalArgumentException naming the file when it does not load
     */
    public static Optional<ToIntFunction<String>> tokenizer(String spec) {
        return tokenizerFile(spec).map(HuggingFaceTokens::counter);
    }

    /**
     * {@code count} made-up conversations with the spread of lengths of {@code shape}'s ShareGPT sample, but with these
     * mean prompt and reply lengths in tokens (by {@code tokens}), to within a token: a published ShareGPT run
     * rehearsed from its printed token totals, with its client's spread.
     */
    public static Dataset shareGptShaped(ShareGptShape shape, double meanPromptTokens, double meanOutputTokens,
                                         int count, ToIntFunction<String> tokens) {
        return shape.shaped(meanPromptTokens, meanOutputTokens, count, tokens);
    }

    /**
     * The {@code synthetic:in=DIST,out=DIST[,count=N]} set {@code spec} names, its drawn lengths
     * scaled to these mean prompt and reply lengths in tokens (by {@code tokens}), to within a token: a published run of
     * random lengths (e.g. {@code sglang.bench_serving}'s, uniform up to the asked length) rehearsed from its printed
     * token totals.
     *
     * @throws IllegalArgumentException when {@code spec} is not a synthetic spec, naming what was expected
     */
    public static Dataset syntheticShaped(String spec, double meanPromptTokens, double meanOutputTokens,
                                          ToIntFunction<String> tokens) {
        String prefix = DatasetKind.SYNTHETIC.id() + ":";
        if (!spec.startsWith(prefix)) {
            throw new IllegalArgumentException("dataset " + spec + ": expected synthetic:in=DIST,out=DIST");
        }
        return SyntheticLengths.parse(spec, spec.substring(prefix.length())).shaped(meanPromptTokens, meanOutputTokens,
                tokens);
    }

    /** The {@code tokenizer.json} {@code spec} names with {@code tokenizer=PATH}; empty when it names none. */
    public static Optional<Path> tokenizerFile(String spec) {
        String path = Tokenized.of(spec).tokenizer();
        return path == null || path.isEmpty() ? Optional.empty() : Optional.of(Path.of(path));
    }

    /**
     * What a rate of {@code spec}'s workload counts: {@code conversations/s} for multi-turn conversations, whose
     * later turns follow their answers rather than the schedule, else {@code req/s} (also for no spec at all).
     */
    public static String rateUnit(String spec) {
        return rateUnit(pacesConversations(spec));
    }

    /** What a rate counts: {@code conversations/s} where it paces conversations, else {@code req/s}. */
    public static String rateUnit(boolean pacesConversations) {
        return pacesConversations ? CONVERSATION_RATE_UNIT : REQUEST_RATE_UNIT;
    }

    /** Whether a rate of {@code spec}'s workload paces conversations (multi-turn ones), not requests. */
    public static boolean pacesConversations(String spec) {
        return spec != null && DatasetKind.of(spec).filter(k -> k.kind() == DatasetKind.MULTI_TURN).isPresent();
    }

    /** For a bare file name (no kind before it), the kinds that read such a file, named before it; else nothing. */
    private static String fileHint(String spec) {
        String lower = spec.toLowerCase(java.util.Locale.ROOT);
        if (lower.matches("[a-z][a-z0-9-]*:.*")) {
            return "";
        }
        if (lower.endsWith(".jsonl")) {
            return "a file is read by the kind named before its path: jsonl:" + spec + " (one request per line) or"
                    + " trace:" + spec + " (a Mooncake-style trace); ";
        }
        if (lower.endsWith(".json")) {
            return "a file is read by the kind named before its path: sharegpt:" + spec + " (a ShareGPT-format file); ";
        }
        return "";
    }

    /**
     * For the name another load generator gives its made-up prompts, the same dataset here; else nothing. Users come
     * with {@code vllm bench serve --dataset-name random} or guidellm's {@code --data "prompt_tokens=I,output_tokens=O"}
     * in their fingers. vLLM draws both lengths between {@code floor(len * (1 - R))} and {@code ceil(len * (1 + R))}
     * ({@code RandomDataset} in {@code vllm/benchmarks/datasets.py}, read at the 0.17.1 tag commit 95c0f928).
     */
    private static String otherToolHint(String spec) {
        String lower = spec.toLowerCase(java.util.Locale.ROOT);
        if (lower.equals("random") || lower.startsWith("random:")) {
            return "vllm bench serve's random dataset (--random-input-len I --random-output-len O) is"
                    + " synthetic:in=fixed(I),out=fixed(O) here, and with --random-range-ratio R"
                    + " synthetic:in=uniform(I*(1-R),I*(1+R)),out=uniform(O*(1-R),O*(1+R)) written as numbers; ";
        }
        if (lower.contains("prompt_tokens=") || lower.contains("output_tokens=")) {
            return "guidellm's prompt_tokens=I,output_tokens=O is synthetic:in=fixed(I),out=fixed(O) here; ";
        }
        return "";
    }

    /** Why {@code spec} names no dataset, or {@code null} when its form is right (files are not read). */
    public static String problem(String spec) {
        Tokenized tokenized = Tokenized.of(spec);
        if ("".equals(tokenized.tokenizer())) {
            return "dataset \"" + spec + "\": tokenizer= names no file; expected tokenizer=PATH of a tokenizer.json";
        }
        Optional<DatasetKind.Named> named = DatasetKind.of(tokenized.spec());
        if (named.isEmpty()) {
            return "unknown dataset \"" + spec + "\": " + fileHint(tokenized.spec()) + otherToolHint(tokenized.spec())
                    + "expected one of "
                    + DatasetKind.known();
        }
        String problem = named.get().kind().problem(named.get().rest());
        return problem == null ? null : "dataset \"" + spec + "\": " + problem + "; expected " + named.get().kind().form()
                + " (any kind also takes tokenizer=PATH)";
    }

    /**
     * A spec with its {@code tokenizer=PATH} option taken out: every kind takes one, a Hugging Face
     * {@code tokenizer.json} whose counts replace the default counter's.
     *
     * @param spec      the spec without the option
     * @param tokenizer the option's value, {@code null} when not given
     */
    record Tokenized(String spec, String tokenizer) {

        private static final String OPTION = "tokenizer=";

        static Tokenized of(String spec) {
            int colon = spec.indexOf(':');
            if (colon < 0) {
                return new Tokenized(spec, null);
            }
            List<String> parts = new ArrayList<>(SpecOptions.split(spec.substring(colon + 1)));
            String tokenizer = null;
            for (int i = 0; i < parts.size(); i++) {
                if (parts.get(i).startsWith(OPTION)) {
                    tokenizer = parts.remove(i).substring(OPTION.length()).strip();
                    break;
                }
            }
            if (tokenizer == null) {
                return new Tokenized(spec, null);
            }
            String rest = String.join(",", parts);
            return new Tokenized(spec.substring(0, colon) + (rest.isEmpty() ? "" : ":" + rest), tokenizer);
        }
    }

    /**
     * A {@code -p dataset=...} value as its datasets: split at the commas that start another dataset's kind
     * ({@code sharegpt:a.json,synthetic-sharegpt}), so that a kind's own options keep theirs
     * ({@code synthetic:in=fixed(512),out=uniform(64,256)} is one dataset).
     */
    public static List<String> splitList(String value) {
        List<String> specs = new ArrayList<>();
        for (String part : SpecOptions.split(value)) {
            if (specs.isEmpty() || DatasetKind.of(part).isPresent() && !part.contains("=") || startsKind(part)) {
                specs.add(part);
            } else {
                specs.set(specs.size() - 1, specs.get(specs.size() - 1) + "," + part);
            }
        }
        return specs;
    }

    private static boolean startsKind(String part) {
        int colon = part.indexOf(':');
        int eq = part.indexOf('=');
        return colon > 0 && (eq < 0 || colon < eq) && DatasetKind.of(part).isPresent();
    }
}
