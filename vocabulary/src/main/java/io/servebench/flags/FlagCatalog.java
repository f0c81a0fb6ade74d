package io.servebench.flags;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The flags one version of an engine's serve command accepts, as its own argument parser declares them: vLLM's
 * {@code vllm serve} and SGLang's {@code sglang.launch_server}. Each version is a data file beside this class,
 * {@code <engine>-<version>.flags}, generated from the engine's source by {@code scripts/engine-flags/} and naming
 * the commit it was read from; one line per flag: {@code NAME KIND [choices=a,b] [range=(0,1]] [aliases=-x,--y]
 * [nargs=+|*|?] [# note]}.
 *
 * <p>A flag is checked for its name (an alias counts; {@code --no-NAME} for a boolean; vLLM's {@code --json-flag.key}
 * and {@code -O<level>}) and, where the parser states one, the form of its value (a whole number, a number, one of
 * the choices, JSON, no value for a switch); a number also against the bounds its config field states ({@link Range}),
 * which the engine checks after its parser, as it starts. An abbreviation, which Python's argparse would take for the one flag it
 * starts, is refused: ServeBench compares flags by name (servers shared by variants, typed options overridden by a
 * written flag), so it must be the name itself.
 */
public final class FlagCatalog {

    /** The engines with catalogues, by the engine kind's name. */
    public static final String VLLM = "vllm";
    public static final String SGLANG = "sglang";

    /** The versions read, oldest first; the last is the one a study that names none is checked against. */
    private static final Map<String, List<String>> VERSIONS = Map.of(
            VLLM, List.of("0.17.1", "0.26.0"),
            SGLANG, List.of("0.5.9", "0.5.18"));

    private static final Map<String, String> ENGINE_NAMES = Map.of(VLLM, "vLLM", SGLANG, "SGLang");
    private static final Map<String, FlagCatalog> LOADED = new ConcurrentHashMap<>();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern WHOLE = Pattern.compile("-?\\d+");
    /** vLLM's {@code human_readable_int}: {@code 1k} (1,000), {@code 1K} (1,024), {@code 2.5M}; SGLang's SI/IEC sizes. */
    private static final Pattern READABLE_WHOLE = Pattern.compile("-?\\d+(\\.\\d+)?([kKmMgGtT]i?)?");
    private static final Pattern OPTIMIZATION_LEVEL = Pattern.compile("-O\\d*");

    /** How a flag takes its value. */
    public enum Kind {
        /** No value ({@code store_true}, {@code store_const}). */
        SWITCH,
        /** No value, and {@code --no-NAME} turns it off (argparse's {@code BooleanOptionalAction}). */
        BOOL,
        /** A whole number. */
        INT,
        /** A number. */
        FLOAT,
        /** Any text. */
        STR,
        /** A JSON value. */
        JSON,
        /** One of the flag's choices. */
        CHOICE
    }

    /**
     * One flag of the parser.
     *
     * @param name     the name argparse registered first, e.g. {@code --max-num-seqs}
     * @param kind     how it takes its value
     * @param choices  the values a {@link Kind#CHOICE} takes, as written in the source
     * @param aliases  its other names, e.g. {@code -tp} for {@code --tensor-parallel-size}
     * @param nargs    argparse's {@code nargs} ({@code +}, {@code *}, {@code ?}), or empty for one value
     * @param note     what the line's comment says about it (a readable size, deprecated), or empty
     * @param range    the values a number may take ({@link Range#ANY} where the source states no bounds)
     */
    public record Spec(String name, Kind kind, List<String> choices, List<String> aliases, String nargs, String note,
                       Range range) {

        public Spec {
            choices = List.copyOf(choices);
            aliases = List.copyOf(aliases);
        }

        /** Whether it may be given without a value. */
        boolean valueOptional() {
            return kind == Kind.SWITCH || kind == Kind.BOOL || nargs.equals("?") || nargs.equals("*");
        }
    }

    /**
     * The bounds a number must keep, as the engine states them beside the flag: vLLM's config fields' pydantic
     * {@code Field(gt=, ge=, lt=, le=)}, which it checks when it builds its config from the parsed arguments, so a value
     * out of them passes its parser and stops the server as it starts. Written {@code (0,1]}: a parenthesis excludes
     * its bound, a bracket includes it, a missing number leaves that side open.
     *
     * @param low           the lower bound, {@code -Infinity} for none
     * @param lowIncluded   whether {@code low} itself is allowed
     * @param high          the upper bound, {@code Infinity} for none
     * @param highIncluded  whether {@code high} itself is allowed
     */
    public record Range(double low, boolean lowIncluded, double high, boolean highIncluded) {

        /** No bounds. */
        public static final Range ANY = new Range(Double.NEGATIVE_INFINITY, false, Double.POSITIVE_INFINITY, false);

        private static final Pattern FORM = Pattern.compile("([\\[(])(-?[0-9.]*),(-?[0-9.]*)([\\])])");

        /** The range written as in a catalogue line, e.g. {@code (0,1]} or {@code [1,)}. */
        static Range parse(String text) {
            java.util.regex.Matcher m = FORM.matcher(text);
            if (!m.matches()) {
                throw new IllegalArgumentException("expected a range such as (0,1] or [1,), got \"" + text + "\"");
            }
            return new Range(m.group(2).isEmpty() ? Double.NEGATIVE_INFINITY : Double.parseDouble(m.group(2)),
                    m.group(1).equals("["), m.group(3).isEmpty() ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(3)),
                    m.group(4).equals("]"));
        }

        /** Whether {@code value} keeps within the bounds. */
        public boolean contains(double value) {
            return (lowIncluded ? value >= low : value > low) && (highIncluded ? value <= high : value < high);
        }

        /** The bounds in words, e.g. {@code greater than 0 and at most 1}. */
        public String describe() {
            List<String> sides = new ArrayList<>();
            if (low != Double.NEGATIVE_INFINITY) {
                sides.add((lowIncluded ? "at least " : "greater than ") + number(low));
            }
            if (high != Double.POSITIVE_INFINITY) {
                sides.add((highIncluded ? "at most " : "less than ") + number(high));
            }
            return String.join(" and ", sides);
        }

        private static String number(double v) {
            return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
        }
    }

    private final String engine;
    private final String version;
    private final String source;
    /** Every name and alias, to the flag's spec, in the file's order. */
    private final Map<String, Spec> byName;

    private FlagCatalog(String engine, String version, String source, Map<String, Spec> byName) {
        this.engine = engine;
        this.version = version;
        this.source = source;
        this.byName = byName;
    }

    /**
     * The engine's name as its own project writes it, for messages and reports: {@code vLLM}, {@code SGLang}.
     *
     * @param engine {@link #VLLM} or {@link #SGLANG}
     */
    public static String engineName(String engine) {
        String name = ENGINE_NAMES.get(engine);
        if (name == null) {
            throw new IllegalArgumentException("no flag catalogue of engine \"" + engine + "\"; expected " + VLLM + " or "
                    + SGLANG);
        }
        return name;
    }

    /** Whether ServeBench has flag catalogues of the engine kind {@code engine} ({@code vllm}, {@code sglang}). */
    public static boolean covers(String engine) {
        return VERSIONS.containsKey(engine);
    }

    /** The versions of {@code engine} with a catalogue, oldest first; empty for an engine without any. */
    public static List<String> versions(String engine) {
        return VERSIONS.getOrDefault(engine, List.of());
    }

    /** The catalogue of that version, empty when ServeBench has none for it. */
    public static Optional<FlagCatalog> of(String engine, String version) {
        if (!versions(engine).contains(version)) {
            return Optional.empty();
        }
        return Optional.of(LOADED.computeIfAbsent(engine + "-" + version, key -> load(engine, version)));
    }

    /**
     * The catalogue a study is checked against: the version it names, or the newest known when it names none.
     *
     * @throws IllegalArgumentException when it names a version without a catalogue, saying which there are
     */
    public static FlagCatalog forStudy(String engine, String version) {
        if (!covers(engine)) {
            throw new IllegalArgumentException("no flag catalogue of engine \"" + engine + "\"; there are "
                    + String.join(", ", VERSIONS.keySet().stream().sorted().toList()));
        }
        List<String> known = versions(engine);
        String wanted = version == null || version.isEmpty() ? known.get(known.size() - 1) : version;
        return of(engine, wanted).orElseThrow(() -> new IllegalArgumentException(versionProblem(engine, wanted)));
    }

    /** Why {@code version} of {@code engine} cannot be checked, or {@code null} when it can (or is empty: newest). */
    public static String versionProblem(String engine, String version) {
        if (!covers(engine) || version.isEmpty() || versions(engine).contains(version)) {
            return null;
        }
        return "no flag list of " + ENGINE_NAMES.get(engine) + " " + version + "; expected one of "
                + String.join(", ", versions(engine)) + " (the flags of each were read from its argument parser),"
                + " or no version to check against the newest";
    }

    public String engine() {
        return engine;
    }

    public String version() {
        return version;
    }

    /**
     * What the newest version says is wrong with {@code flag} when no known version of {@code engine} accepts it;
     * empty when one does (or there is no catalogue of that engine). For an engine whose version is not known, such as
     * the one the simulated engine stands in for.
     */
    public static Optional<String> refusedByEveryVersion(String engine, Flag flag) {
        if (!covers(engine) || versions(engine).stream().anyMatch(v -> of(engine, v).orElseThrow().problem(flag).isEmpty())) {
            return Optional.empty();
        }
        return forStudy(engine, "").problem(flag);
    }

    /** Where the catalogue was read: the engine's repository, commit and files. */
    public String source() {
        return source;
    }

    /** The engine and version as a user writes them, e.g. {@code vLLM 0.17.1}. */
    public String label() {
        return ENGINE_NAMES.get(engine) + " " + version;
    }

    /** The flag of that name or alias, empty when this version has none. */
    public Optional<Spec> spec(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * {@code flag} under the flag's own name, as argparse reads it: an alias ({@code -tp}) or an abbreviation (the start
     * of exactly one name, which argparse takes for that flag) written as the name it stands for; any other flag as it
     * is.
     */
    public Flag resolved(Flag flag) {
        Spec exact = byName.get(flag.name());
        if (exact != null) {
            return exact.name().equals(flag.name()) ? flag : new Flag(exact.name(), flag.value());
        }
        List<String> startingWith = byName.keySet().stream().filter(n -> n.startsWith(flag.name())).toList();
        return startingWith.size() == 1 ? new Flag(byName.get(startingWith.get(0)).name(), flag.value()) : flag;
    }

    /**
     * {@code flag} as the one setting it makes, so that two spellings of a setting compare equal: under its own name
     * ({@link #resolved}: an alias, an abbreviation), a boolean's {@code --no-NAME} as {@code NAME} with the value
     * {@code false} and a boolean's {@code NAME} alone as {@code NAME} with {@code true}, as argparse's
     * {@code BooleanOptionalAction} sets them.
     */
    public Flag canonical(Flag flag) {
        Flag own = resolved(flag);
        Spec spec = byName.get(own.name());
        if (spec != null && spec.kind() == Kind.BOOL && own.value() == null) {
            return new Flag(spec.name(), "true");
        }
        if (spec == null && own.name().startsWith("--no-")) {
            Spec negated = byName.get("--" + own.name().substring("--no-".length()));
            if (negated != null && negated.kind() == Kind.BOOL && own.value() == null) {
                return new Flag(negated.name(), "false");
            }
        }
        return own;
    }

    /**
     * {@code flag} as the arguments this version's parser reads it from: a list-valued flag ({@code nargs} {@code +} or
     * {@code *}, such as vLLM's {@code --lora-modules}) as its name followed by each item ({@link Flag#values()}), since
     * argparse takes {@code --name=a b} as the one item {@code "a b"}; any other flag as one argument.
     */
    public List<String> args(Flag flag) {
        Spec spec = byName.get(flag.name());
        if (spec == null || flag.value() == null || !(spec.nargs().equals("+") || spec.nargs().equals("*"))) {
            return List.of(flag.toArg());
        }
        List<String> args = new java.util.ArrayList<>();
        args.add(flag.name());
        args.addAll(flag.values());
        return args;
    }

    /**
     * What is wrong with {@code flag} for this version, empty when its parser accepts it: a name it does not know
     * (with the nearest it does, and the versions that know this one), or a value of the wrong form.
     */
    public Optional<String> problem(Flag flag) {
        String nameProblem = nameProblem(flag.name());
        if (nameProblem != null) {
            return Optional.of(nameProblem);
        }
        Spec spec = byName.get(flag.name());
        if (spec != null) {
            return Optional.ofNullable(valueProblem(spec, flag));
        }
        // a name the parser takes without a spec of its own: a JSON key, -O, or a boolean's --no- form (no value)
        boolean negation = flag.name().startsWith("--no-") && flag.name().indexOf('.') < 0;
        return negation && flag.value() != null
                ? Optional.of("flag " + flag.toArg() + ": " + flag.name() + " takes no value in " + label())
                : Optional.empty();
    }

    /**
     * What is wrong with a flag's name alone for this version, empty when the parser knows it; for a flag whose value
     * is not known yet (a study's {@code @Param} placeholder).
     */
    public Optional<String> nameProblem(Flag flag) {
        return Optional.ofNullable(nameProblem(flag.name()));
    }

    /** Why this version's parser does not know {@code name}, or {@code null} when it does. */
    private String nameProblem(String name) {
        if (engine.equals(VLLM)) {
            // FlexibleArgumentParser: -O3 means --optimization-level 3; --json-flag.key=value sets one key of it
            if (OPTIMIZATION_LEVEL.matcher(name).matches()) {
                return null;
            }
            int dot = name.indexOf('.');
            if (dot > 0) {
                String base = name.substring(0, dot);
                Spec spec = byName.get(base);
                if (spec == null) {
                    return unknown(base);
                }
                return spec.kind() == Kind.JSON ? null : "flag " + name + ": " + base + " takes no JSON in " + label()
                        + " (it is " + describe(spec) + "), so it has no keys to set";
            }
        }
        if (byName.containsKey(name)) {
            return null;
        }
        if (name.startsWith("--no-")) {
            Spec negated = byName.get("--" + name.substring("--no-".length()));
            if (negated != null && negated.kind() == Kind.BOOL) {
                return null;
            }
        }
        return unknown(name);
    }

    private String unknown(String name) {
        StringBuilder message = new StringBuilder("flag " + name + " is not a flag of " + label());
        List<String> elsewhere = versions(engine).stream().filter(v -> !v.equals(version))
                .filter(v -> of(engine, v).orElseThrow().byName.containsKey(name)).toList();
        List<String> startingWith = byName.keySet().stream().filter(n -> n.startsWith(name)).toList();
        if (!elsewhere.isEmpty()) {
            message.append(" (").append(ENGINE_NAMES.get(engine)).append(' ').append(String.join(" and ", elsewhere))
                    .append(" has it; name that version on @Engine(version = ...) if the server runs it)");
        }
        String other = engine.equals(VLLM) ? SGLANG : VLLM;
        EngineFlags mine = spellings(engine);
        EngineFlags theirs = spellings(other);
        if (theirs.spells(name)) {
            // the other engine's spelling of a setting both have: the flag a user carried over from one to the other
            Optional<List<String>> own = mine.counterpart(name, theirs);
            message.append("; it is ").append(ENGINE_NAMES.get(other)).append("'s spelling: ");
            if (own.isEmpty()) {
                message.append(ENGINE_NAMES.get(engine)).append(" has no setting of that meaning");
                if (name.equals(theirs.gpuMemoryUtilization()) && mine.staticMemoryFraction() != null) {
                    message.append(" (its ").append(mine.staticMemoryFraction())
                            .append(" is the share of GPU memory for weights and KV cache alone)");
                } else if (name.equals(theirs.staticMemoryFraction()) && mine.gpuMemoryUtilization() != null) {
                    message.append(" (its ").append(mine.gpuMemoryUtilization())
                            .append(" is the whole budget: weights, KV cache and activations)");
                }
            } else if (own.get().isEmpty()) {
                message.append(ENGINE_NAMES.get(engine)).append(" needs none, as that is its default");
            } else {
                message.append(ENGINE_NAMES.get(engine)).append(" writes ").append(String.join(" ", own.get()));
            }
            return message.toString();
        }
        if (startingWith.size() == 1) {
            message.append("; write its whole name, ").append(startingWith.get(0)).append(": argparse would take an")
                    .append(" abbreviation, but ServeBench compares flags by name (shared servers, typed options)");
        } else {
            message.append("; did you mean ").append(nearest(name)).append('?');
        }
        return message.toString();
    }

    /** The spellings of the settings both engines have, for the engine kind {@code engine}. */
    private static EngineFlags spellings(String engine) {
        return engine.equals(VLLM) ? EngineFlags.VLLM : EngineFlags.SGLANG;
    }

    /** The name or alias closest to {@code name} by edit distance; the first in the file's order on a tie. */
    private String nearest(String name) {
        return byName.keySet().stream().min(Comparator.comparingInt(n -> distance(name, n))).orElseThrow();
    }

    private String valueProblem(Spec spec, Flag flag) {
        String value = flag.value();
        String where = "flag " + flag.toArg() + ": " + spec.name() + " in " + label();
        if (value == null) {
            return spec.valueOptional() ? null : where + " needs a value (" + describe(spec) + ")";
        }
        if (spec.kind() == Kind.SWITCH || spec.kind() == Kind.BOOL) {
            return where + " is a switch; expected it without a value"
                    + (spec.kind() == Kind.BOOL ? ", or --no-" + spec.name().substring(2) + " to turn it off" : "");
        }
        List<String> values = spec.nargs().isEmpty() || spec.nargs().equals("?") ? List.of(value) : flag.values();
        if (values.size() == 1 && (spec.kind() == Kind.INT || spec.kind() == Kind.FLOAT || spec.kind() == Kind.CHOICE)
                && flag.values().size() > 1) {
            return where + " takes one value (" + describe(spec) + "); got " + flag.values().size() + ": "
                    + String.join(", ", flag.values());
        }
        for (String v : values) {
            if (!fits(spec, v)) {
                return where + " takes " + describe(spec) + "; got \"" + v + "\"";
            }
            if (!withinRange(spec, v)) {
                return where + " takes " + describe(spec) + " " + spec.range().describe() + " (the bounds of its"
                        + " config field: " + ENGINE_NAMES.get(engine) + "'s parser reads " + v + ", but the server then"
                        + " refuses to start); got " + v;
            }
        }
        return null;
    }

    /** Whether a value of the right form keeps within the flag's bounds; one the bounds cannot judge (1k, auto) does. */
    private static boolean withinRange(Spec spec, String value) {
        if (spec.range().equals(Range.ANY) || !(spec.kind() == Kind.INT || spec.kind() == Kind.FLOAT)) {
            return true;
        }
        double number;
        try {
            number = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return true;
        }
        return Double.isNaN(number) || spec.range().contains(number);
    }

    private static boolean fits(Spec spec, String value) {
        switch (spec.kind()) {
            case INT:
                return WHOLE.matcher(value).matches()
                        || spec.note().contains("human_readable") && READABLE_WHOLE.matcher(value).matches()
                        || spec.note().contains("suffixes") && READABLE_WHOLE.matcher(value).matches()
                        || spec.note().contains("auto") && value.equals("auto");
            case FLOAT:
                try {
                    Double.parseDouble(value);
                    return true;
                } catch (NumberFormatException e) {
                    return false;
                }
            case CHOICE:
                return spec.choices().contains(value);
            case JSON:
                // a JSON object or list must parse; vLLM also takes a bare value for some configs (-cc 3)
                if (!value.startsWith("{") && !value.startsWith("[")) {
                    return true;
                }
                try {
                    JSON.readTree(value);
                    return true;
                } catch (JsonProcessingException e) {
                    return false;
                }
            default:
                return true;
        }
    }

    private static String describe(Spec spec) {
        String one;
        switch (spec.kind()) {
            case SWITCH:
            case BOOL:
                return "a switch";
            case INT:
                one = spec.note().contains("human_readable") || spec.note().contains("suffixes")
                        ? "a whole number (1k and 2M spellings too)" : "a whole number";
                break;
            case FLOAT:
                one = "a number";
                break;
            case CHOICE:
                one = "one of " + String.join(", ", spec.choices());
                break;
            case JSON:
                one = "JSON";
                break;
            default:
                one = "text";
        }
        return spec.nargs().isEmpty() || spec.nargs().equals("?") ? one : "values each " + one;
    }

    /**
     * Optimal-string-alignment distance: letters inserted, dropped, changed, or two neighbours swapped, one edit each
     * (a swap is the commonest slip in a flag name).
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int change = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + change);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    private static FlagCatalog load(String engine, String version) {
        String resource = engine + "-" + version + ".flags";
        try (InputStream in = FlagCatalog.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("flag catalogue " + resource + " is missing from the class path");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            Map<String, Spec> byName = new LinkedHashMap<>();
            String source = "";
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.startsWith("# source:")) {
                    source = line.substring("# source:".length()).strip();
                }
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                Spec spec = parse(line, resource + ":" + number);
                byName.put(spec.name(), spec);
                for (String alias : spec.aliases()) {
                    byName.putIfAbsent(alias, spec);
                }
            }
            return new FlagCatalog(engine, version, source, byName);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read flag catalogue " + resource, e);
        }
    }

    private static Spec parse(String line, String where) {
        int hash = line.indexOf(" # ");
        String note = hash < 0 ? "" : line.substring(hash + 3).strip();
        String[] words = (hash < 0 ? line : line.substring(0, hash)).strip().split("\\s+");
        if (words.length < 2) {
            throw new IllegalStateException(where + ": expected NAME KIND, got \"" + line + "\"");
        }
        Kind kind;
        try {
            kind = Kind.valueOf(words[1].toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + ": unknown kind \"" + words[1] + "\"; expected one of "
                    + Arrays.toString(Kind.values()).toLowerCase(Locale.ROOT));
        }
        List<String> choices = List.of();
        List<String> aliases = List.of();
        String nargs = "";
        Range range = Range.ANY;
        for (int i = 2; i < words.length; i++) {
            String word = words[i];
            if (word.startsWith("range=")) {
                try {
                    range = Range.parse(word.substring("range=".length()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException(where + ": " + e.getMessage());
                }
            } else if (word.startsWith("choices=")) {
                choices = List.of(word.substring("choices=".length()).split(","));
            } else if (word.startsWith("aliases=")) {
                aliases = List.of(word.substring("aliases=".length()).split(","));
            } else if (word.startsWith("nargs=")) {
                nargs = word.substring("nargs=".length());
            } else {
                // an action's name the extractor kept (e.g. a deprecated alias), read as a note
                note = (note + " " + word).strip();
            }
        }
        return new Spec(words[0], kind, choices, new ArrayList<>(aliases), nargs, note, range);
    }
}
