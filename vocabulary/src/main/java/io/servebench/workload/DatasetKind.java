package io.servebench.workload;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

/**
 * The kinds of dataset a study names in {@code @Workload(dataset = ...)} or {@code -p dataset=...}, as
 * {@code KIND:LOCATION[,OPTIONS]} or {@code KIND[:OPTIONS]}: one home for each kind's name, its form, what it
 * reads, and how its spec is checked before anything starts.
 */
public enum DatasetKind {

    /** A ShareGPT-format JSON file, filtered as {@code vllm bench serve} filters it. */
    SHAREGPT("sharegpt", "sharegpt:PATH[,minTokens=N][,maxPrompt=N][,maxTotal=N]", "a ShareGPT-format JSON file,"
            + " conversations kept by length as vllm bench serve keeps them (4, 1024, 2048 tokens)") {
        @Override
        Dataset read(String spec, String rest, ToIntFunction<String> tokens) {
            FileSpec file = FileSpec.of(spec, rest, ShareGptFile.Filters.OPTIONS);
            return ShareGptFile.read(spec, file.path(), ShareGptFile.Filters.of(file.options()), tokens);
        }

        @Override
        String problem(String rest) {
            return FileSpec.problem(id(), rest, ShareGptFile.Filters.OPTIONS);
        }
    },

    /** One request per line of a JSON-lines file. */
    JSONL("jsonl", "jsonl:PATH[,out=N]", "one request per line: {\"prompt\": \"...\", \"output_tokens\": N}, out=N for lines"
            + " without output_tokens") {
        @Override
        Dataset read(String spec, String rest, ToIntFunction<String> tokens) {
            FileSpec file = FileSpec.of(spec, rest, JsonlFile.OPTIONS);
            return JsonlFile.read(spec, file.path(), file.options().positiveInt("out"), tokens);
        }

        @Override
        String problem(String rest) {
            return FileSpec.problem(id(), rest, JsonlFile.OPTIONS);
        }
    },

    /** A production trace of arrival times, lengths and shared blocks, replayed in file order. */
    TRACE("trace", "trace:PATH[,timeScale=X][,blockSize=N]", "a Mooncake-style trace, one {\"timestamp\": MS,"
            + " \"input_length\": N, \"output_length\": N, \"hash_ids\": [...]} per line, sent in file order (at its times"
            + " with profile trace, scaled by timeScale)") {
        @Override
        Dataset read(String spec, String rest, ToIntFunction<String> tokens) {
            FileSpec file = FileSpec.of(spec, rest, TraceFile.OPTIONS);
            return TraceFile.read(spec, file.path(), file.options(), tokens);
        }

        @Override
        String problem(String rest) {
            String problem = FileSpec.problem(id(), rest, TraceFile.OPTIONS);
            return problem != null ? problem : problemOf("trace:" + rest, spec -> {
                SpecOptions options = FileSpec.of(spec, rest, TraceFile.OPTIONS).options();
                options.positiveNumber("timeScale", 1);
                options.positiveInt("blockSize");
            });
        }
    },

    /** Prompts and replies of lengths drawn from stated distributions. */
    SYNTHETIC("synthetic", "synthetic:in=DIST,out=DIST[,count=N][,seed=S]", "prompt and reply lengths drawn from DIST:"
            + " n or fixed(n), uniform(a,b), normal(mu,sigma) or lognormal(median,sigma), in tokens",
            SyntheticLengths::parse),

    /** Groups of requests that share a long prefix, for prefix-cache studies. */
    SHARED_PREFIX("shared-prefix", "shared-prefix:groups=G,prefix=P,question=Q,out=O[,count=N][,seed=S]", "G prefixes of"
            + " P tokens, each shared by many questions of Q tokens, replies of O; P, Q, O in tokens or as a DIST",
            SharedPrefix::parse),

    /** Conversations whose later turns carry the history before them. */
    MULTI_TURN("multi-turn", "multi-turn:turns=K,in=DIST,out=DIST[,system=N][,count=N][,seed=S]", "N conversations of"
            + " K turns, each turn sent when the one before it has been answered, with the history before it",
            MultiTurn::parse),

    /** The bundled made-up conversations in ShareGPT's shape. */
    SYNTHETIC_SHAREGPT("synthetic-sharegpt", "synthetic-sharegpt", "the bundled made-up conversations with ShareGPT-like"
            + " lengths") {
        @Override
        Dataset read(String spec, String rest, ToIntFunction<String> tokens) {
            return SyntheticShareGpt.dataset(tokens);
        }

        @Override
        String problem(String rest) {
            return rest.isEmpty() ? null : "synthetic-sharegpt takes no options";
        }
    };

    private final String id;
    private final String form;
    private final String description;
    /** How a generated kind's spec becomes its generator ({@code spec}, what follows the colon); null for the others. */
    private final BiFunction<String, String, Generated> generator;

    DatasetKind(String id, String form, String description) {
        this(id, form, description, null);
    }

    /** A kind generated from its spec's options, read and checked alike by the generator {@code parse} makes. */
    DatasetKind(String id, String form, String description, BiFunction<String, String, Generated> parse) {
        this.id = id;
        this.form = form;
        this.description = description;
        this.generator = parse;
    }

    /** What a generated kind's options make: requests of drawn lengths, counted in {@code tokens}' tokens. */
    interface Generated {
        Dataset dataset(ToIntFunction<String> tokens);
    }

    /** The kind's name, before the colon. */
    public String id() {
        return id;
    }

    /** How a spec of this kind is written. */
    public String form() {
        return form;
    }

    /** Reads the dataset; {@code rest} is what follows {@code KIND:}. */
    Dataset read(String spec, String rest, ToIntFunction<String> tokens) {
        return generator.apply(spec, rest).dataset(tokens);
    }

    /** What is wrong with {@code rest} as this kind's location and options, {@code null} when its form is right. */
    String problem(String rest) {
        return problemOf(id + ":" + rest, spec -> generator.apply(spec, rest));
    }

    /**
     * What {@code parse} says is wrong with {@code spec}, without the "dataset SPEC: " its message starts with (which
     * {@link Datasets#problem} says); {@code null} when it parses.
     */
    private static String problemOf(String spec, Consumer<String> parse) {
        try {
            parse.accept(spec);
            return null;
        } catch (IllegalArgumentException e) {
            String prefix = "dataset " + spec + ": ";
            return e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
        }
    }

    /** The kind {@code spec} names, and what follows its colon ({@code ""} for none). */
    static Optional<Named> of(String spec) {
        String name = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
        String rest = spec.contains(":") ? spec.substring(spec.indexOf(':') + 1) : "";
        return Arrays.stream(values()).filter(k -> k.id.equals(name)).findFirst().map(k -> new Named(k, rest));
    }

    /**
     * The location and options of a kind read from a file, {@code PATH[,NAME=VALUE]...}.
     *
     * @param path    the file
     * @param options its options
     */
    private record FileSpec(Path path, SpecOptions options) {

        /** @throws IllegalArgumentException for an option that is not one of {@code known} */
        static FileSpec of(String spec, String rest, List<String> known) {
            List<String> parts = SpecOptions.split(rest);
            return new FileSpec(Path.of(parts.get(0)), SpecOptions.of(spec, parts.subList(1, parts.size()), known));
        }

        /** What is wrong with the form of {@code rest} (what follows {@code id:}), {@code null} when nothing is. */
        static String problem(String id, String rest, List<String> known) {
            if (rest.isEmpty()) {
                return "no file after " + id + ":";
            }
            List<String> parts = SpecOptions.split(rest);
            return SpecOptions.problem(parts.subList(1, parts.size()), known);
        }
    }

    /** A kind and the rest of the spec that names it. */
    record Named(DatasetKind kind, String rest) {
    }

    /** Every kind's form and what it is, for messages and help. */
    static String known() {
        return Arrays.stream(values()).map(k -> "\"" + k.form + "\" (" + k.description + ")").collect(Collectors.joining(", "));
    }
}
