package io.servebench.study;

import io.servebench.annotations.Profile;
import io.servebench.engine.kind.EngineKind;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.engine.kind.FlagDialect;
import io.servebench.engine.kind.Redaction;
import io.servebench.engine.kind.ServerSettingsOptions;
import io.servebench.flags.EngineFlags;
import io.servebench.flags.Flag;
import io.servebench.flags.FlagCatalog;
import io.servebench.measure.SloParams;
import io.servebench.workload.DatasetKind;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Finds everything wrong with a study that its annotations' values show. The annotation processor
 * runs it at compile time (reporting each problem on the offending value) and the runner may run it
 * again on classes compiled without the processor.
 */
public final class StudyChecker {

    /** The arrival profiles a workload may name: the constants of {@link Profile}. */
    public static final List<String> PROFILES = Arrays.stream(Profile.class.getFields())
            .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class)
            .map(StudyChecker::constantValue)
            .toList();

    private static final Set<String> WHOLE_NUMBER_TYPES = Set.of("int", "long");
    private static final Set<String> NUMBER_TYPES = Set.of("int", "long", "double");

    private StudyChecker() {
    }

    /** Every problem of the study, in the order of its class annotations, params, then variants. */
    public static List<Problem> check(StudyDescriptor study) {
        List<Problem> problems = new ArrayList<>();
        if (study.model().isBlank()) {
            problems.add(new Problem(Location.ofClass(study, "ServingBenchmark", "model", -1),
                    "model is empty; expected the model the engine serves (a Hugging Face id or a local path)"));
        }
        if (EngineKinds.byName(study.engineKind()).isEmpty()) {
            problems.add(new Problem(Location.ofClass(study, "Engine", "value", -1), unknownEngine(study.engineKind())));
        }
        Optional<FlagCatalog> classCatalog = catalog(study.engineKind(), study.engineVersion(),
                Location.ofClass(study, "Engine", "version", -1), problems);
        Optional<FlagDialect> classDialect = dialect(study.engineKind());
        checkFlags(study, study.engineFlags(), classCatalog, classDialect,
                (attr, i) -> Location.ofClass(study, "Engine", attr, i), problems);
        checkEngineSetup(study, problems);
        checkWorkload(study.workload(), (attr, i) -> Location.ofClass(study, "Workload", attr, i), problems);
        checkSlo(study.slo(), attr -> Location.ofClass(study, "Slo", attr, -1), problems);
        checkServerOptions(study.serverOptions(), attr -> Location.ofClass(study, "ServerOptions", attr, -1), problems);
        for (int p = 0; p < study.params().size(); p++) {
            checkParam(study, p, problems);
        }
        if (study.variants().isEmpty()) {
            problems.add(new Problem(Location.ofClass(study, "ServingBenchmark", null, -1),
                    "study has no @Variant methods; expected at least one public void no-argument method annotated @Variant"));
        }
        Set<String> names = new HashSet<>();
        String baseline = null;
        String recommended = null;
        for (int v = 0; v < study.variants().size(); v++) {
            VariantDescriptor variant = study.variants().get(v);
            int ordinal = v;
            if (!names.add(variant.name())) {
                problems.add(new Problem(Location.ofVariant(study, v, "Variant", null, -1), "variant name \""
                        + variant.name() + "\" is used by more than one @Variant method (overloads); expected one method per name"));
            }
            if (!variant.engine().isEmpty() && EngineKinds.byName(variant.engine()).isEmpty()) {
                problems.add(new Problem(Location.ofVariant(study, v, "Variant", "engine", -1), unknownEngine(variant.engine())));
            }
            Optional<FlagCatalog> variantCatalog = classCatalog;
            Location versionAt = Location.ofVariant(study, v, "Variant", "engineVersion", -1);
            if (!variant.engine().isEmpty()) {
                variantCatalog = catalog(variant.engine(), variant.engineVersion(), versionAt, problems);
            } else if (!variant.engineVersion().isEmpty()) {
                problems.add(new Problem(versionAt, "engineVersion \"" + variant.engineVersion() + "\" without engine;"
                        + " expected it beside the engine this variant switches to (the class's version is on @Engine)"));
            }
            checkFlags(study, variant.flags(), variantCatalog,
                    variant.engine().isEmpty() ? classDialect : dialect(variant.engine()),
                    (attr, i) -> Location.ofVariant(study, ordinal, "Variant", attr, i), problems);
            checkWorkload(variant.workload(), (attr, i) -> Location.ofVariant(study, ordinal, "Workload", attr, i), problems);
            checkSlo(variant.slo(), attr -> Location.ofVariant(study, ordinal, "Slo", attr, -1), problems);
            checkServerOptions(variant.serverOptions(), attr -> Location.ofVariant(study, ordinal, "ServerOptions", attr, -1),
                    problems);
            checkServerOptionsSpelled(study, ordinal, problems);
            checkCombination(study, ordinal, problems);
            if (variant.baseline()) {
                if (baseline != null) {
                    problems.add(new Problem(Location.ofVariant(study, v, "Baseline", null, -1), "more than one @Baseline: "
                            + baseline + " is already the baseline; expected at most one @Baseline per study"));
                } else {
                    baseline = variant.name();
                }
            }
            if (variant.recommended()) {
                Location at = Location.ofVariant(study, v, "Recommended", null, -1);
                if (recommended != null) {
                    problems.add(new Problem(at, "more than one @Recommended: " + recommended
                            + " is already the recommended variant; expected at most one @Recommended per study"));
                } else {
                    recommended = variant.name();
                }
                if (variant.baseline()) {
                    problems.add(new Problem(at, "variant " + variant.name() + " is both @Baseline and @Recommended;"
                            + " expected the recommendation to be another variant, compared with the baseline"));
                }
            }
        }
        study.tune().ifPresent(tune -> checkTune(study, tune, problems));
        return List.copyOf(problems);
    }

    /** Every stated bound positive; a minimum attainment a share in (0, 1]. */
    private static void checkSlo(SloOptions slo, Function<String, Location> at, List<Problem> problems) {
        slo.statedBounds().forEach((attribute, ms) -> {
            String problem = SloParams.problem(attribute, ms);
            if (problem != null) {
                problems.add(new Problem(at.apply(attribute), "@Slo " + problem));
            }
        });
        if (slo.minAttainment() != null) {
            String problem = SloParams.attainmentProblem(slo.minAttainment());
            if (problem != null) {
                problems.add(new Problem(at.apply("minAttainment"), "@Slo " + problem));
            }
        }
    }

    /** Each stated number in range; {@code speculative} reading {@code METHOD:TOKENS}. */
    private static void checkServerOptions(ServerSettingsOptions options, Function<String, Location> at, List<Problem> problems) {
        options.problems().forEach((attribute, problem) ->
                problems.add(new Problem(at.apply(attribute), "@ServerOptions " + problem)));
    }

    /**
     * The typed options a variant runs with (its own over the class's) can be written in its engine's dialect: not for
     * a kind without one, not a setting the engine has no meaning for (a memory share of the other engine's meaning,
     * SGLang's n-gram under a method it names otherwise). Reported on the variant's {@code @ServerOptions} when it has
     * one, else on the class's; options out of range are reported by {@link #checkServerOptions} instead.
     */
    private static void checkServerOptionsSpelled(StudyDescriptor study, int ordinal, List<Problem> problems) {
        VariantDescriptor variant = study.variants().get(ordinal);
        ServerSettingsOptions options = study.serverOptions(variant.name());
        String kindName = variant.engine().isEmpty() ? study.engineKind() : variant.engine();
        Optional<io.servebench.engine.kind.EngineKind> kind = EngineKinds.byName(kindName);
        if (options.equals(ServerSettingsOptions.NONE) || kind.isEmpty() || !options.problems().isEmpty()
                || !study.serverOptions().problems().isEmpty()) {
            return;
        }
        try {
            options.flags(kind.get(), study.model());
        } catch (IllegalArgumentException e) {
            Location at = variant.serverOptions().equals(ServerSettingsOptions.NONE)
                    ? Location.ofClass(study, "ServerOptions", null, -1)
                    : Location.ofVariant(study, ordinal, "ServerOptions", null, -1);
            Problem problem = new Problem(at, "@ServerOptions for engine " + kindName + ": " + e.getMessage());
            if (!problems.contains(problem)) {
                problems.add(problem);
            }
        }
    }

    /**
     * A tuning study's {@code @Tune} must be in range, and the study must give the tuner what it starts from: a
     * {@code @Baseline}, one request rate on the class's {@code @Workload} (no {@code @Param} rate), and, when the
     * engine group is named, variants in it.
     */
    private static void checkTune(StudyDescriptor study, TuneOptions tune, List<Problem> problems) {
        Location annotation = Location.ofClass(study, "Tune", null, -1);
        boolean metricKnown = true;
        try {
            TuneParams.parse(tune.metric(), study.simpleName());
        } catch (IllegalArgumentException e) {
            metricKnown = false;
            problems.add(new Problem(Location.ofClass(study, "Tune", "metric", -1), "@Tune(metric = \"" + tune.metric()
                    + "\"): expected one of " + TuneParams.ids()));
        }
        if (metricKnown) {
            try {
                tune.params(study.simpleName());
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(annotation, e.getMessage()));
            }
        }
        if (study.baseline().isEmpty()) {
            problems.add(new Problem(annotation, "@Tune study " + study.simpleName() + " has no @Baseline variant; expected"
                    + " one: the baseline engine with its baseline flags, where the tuner starts"));
        }
        boolean atConcurrency = study.workload().rate() == null && study.workload().concurrency() != null;
        if (study.param(WorkloadSetting.RATE.key()).isPresent() || study.param(WorkloadSetting.CONCURRENCY.key()).isPresent()
                || study.workload().rate() == null && study.workload().concurrency() == null) {
            problems.add(new Problem(annotation, "@Tune study " + study.simpleName() + " tunes at one workload point:"
                    + " expected @Workload(rate = R) on the class, or @Workload(concurrency = C) for closed-loop streams, and"
                    + " no @Param rate or concurrency (the validation rates go in @Tune(validationRates = ...))"));
        } else if (atConcurrency && !tune.validationRates().isEmpty()) {
            problems.add(new Problem(Location.ofClass(study, "Tune", "validationRates", -1), "@Tune(validationRates = "
                    + tune.validationRates() + "): " + study.simpleName() + " tunes at concurrency "
                    + study.workload().concurrency() + ", and validation rates are request rates; expected none, or"
                    + " @Workload(rate = R) to tune at a rate"));
        } else if (!atConcurrency && !tune.validationConcurrencies().isEmpty()) {
            problems.add(new Problem(Location.ofClass(study, "Tune", "validationConcurrencies", -1),
                    "@Tune(validationConcurrencies = " + tune.validationConcurrencies() + "): " + study.simpleName()
                    + " tunes at a request rate, and these are numbers of closed-loop streams; expected validationRates,"
                    + " or @Workload(concurrency = C) to tune at a concurrency"));
        }
        if (!tune.engineGroup().equals(TuneOptions.DEFAULT_ENGINE_GROUP)
                && study.variants().stream().noneMatch(v -> v.group().equals(tune.engineGroup()))) {
            problems.add(new Problem(Location.ofClass(study, "Tune", "engineGroup", -1), "@Tune(engineGroup = \""
                    + tune.engineGroup() + "\"): no variant is in that group; expected the group of the candidate engines"));
        }
    }

    /**
     * Checks the study and returns it when it has no problem.
     *
     * @throws IllegalArgumentException listing every problem, one a line
     */
    public static StudyDescriptor requireValid(StudyDescriptor study) {
        List<Problem> problems = check(study);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("study " + study.className() + " has " + problems.size() + " problem(s):"
                    + problems.stream().map(p -> "\n  " + p).collect(Collectors.joining()));
        }
        return study;
    }

    private static void checkEngineSetup(StudyDescriptor study, List<Problem> problems) {
        EngineSetup setup = study.engineSetup();
        String kind = study.engineKind();
        for (int i = 0; i < setup.env().size(); i++) {
            String entry = setup.env().get(i);
            String name = EngineSetup.variable(entry);
            Location at = Location.ofClass(study, "Engine", "env", i);
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                problems.add(new Problem(at, "malformed environment entry \"" + entry + "\"; expected NAME=value with"
                        + " NAME made of letters, digits and '_', e.g. CUDA_VISIBLE_DEVICES=0, or NAME alone to hand on"
                        + " ServeBench's own"));
            } else if (!EngineSetup.handedOn(entry) && Redaction.isSecretName(name)) {
                // a study's source is shared and its setup reaches the journal, the SLURM job files and a container's
                // command line, which other users of the host can read
                problems.add(new Problem(at, "environment entry " + name + " holds a secret, which a study never"
                        + " writes; expected \"" + name + "\" alone, which hands the engine the " + name + " of the"
                        + " environment ServeBench runs in (export it there)"));
            }
        }
        EngineKinds.byName(kind).ifPresent(k -> EngineKinds.setupProblems(k, setup).forEach((attribute, message) ->
                problems.add(new Problem(Location.ofClass(study, "Engine", attribute, -1), message))));
    }

    /**
     * The flag list the flags of engine {@code kind} at {@code version} are checked against: empty for a kind without
     * lists (command, endpoint, sim) and for a version without one, which is a problem at {@code at}.
     */
    private static Optional<FlagCatalog> catalog(String kind, String version, Location at, List<Problem> problems) {
        if (!FlagCatalog.covers(kind)) {
            if (!version.isEmpty()) {
                problems.add(new Problem(at, "version \"" + version + "\" of engine kind \"" + kind + "\": only vllm and"
                        + " sglang have versions whose flags ServeBench checks; expected no version"));
            }
            return Optional.empty();
        }
        String problem = FlagCatalog.versionProblem(kind, version);
        if (problem != null) {
            problems.add(new Problem(at, problem));
            return Optional.empty();
        }
        return Optional.of(FlagCatalog.forStudy(kind, version));
    }

    /**
     * A flag's problem in {@code catalog}'s engine version: for a flag whose value names a {@code @Param}, each of the
     * param's values in turn (the first refused is reported); a flag naming several params is checked by name only.
     */
    private static Optional<String> catalogProblem(StudyDescriptor study, FlagCatalog catalog, String text, Flag flag) {
        List<String> names = Studies.placeholders(text);
        if (names.isEmpty()) {
            return catalog.problem(flag);
        }
        // a name is never a placeholder (Flag.problem refuses "${" in one): the placeholders are in the value
        Optional<ParamSpec> param = names.size() == 1 ? study.param(names.get(0)) : Optional.empty();
        if (param.isEmpty()) {
            return catalog.nameProblem(flag);
        }
        for (String value : param.get().values()) {
            Optional<String> problem = catalog.problem(Flag.parse(Studies.substitute(text,
                    Map.of(param.get().name(), value))).orElseThrow());
            if (problem.isPresent()) {
                return problem.map(p -> p + " (with @Param " + param.get().name() + " = " + value + ")");
            }
        }
        return Optional.empty();
    }

    /** A flag as the study wrote it, and the setting it makes ({@link FlagCatalog#canonical}). */
    private record Written(Flag setting, Flag asWritten) {
    }

    /** The command line of the engine kind {@code kind}, empty for a kind without one (or an unknown kind). */
    private static Optional<FlagDialect> dialect(String kind) {
        return EngineKinds.byName(kind).flatMap(EngineKind::dialect);
    }

    /**
     * A flag ServeBench writes itself on the engine's command line ({@link FlagDialect#ownFlags}): the engine's parser
     * would take the study's, the last given, and listen where ServeBench does not wait, or serve another model.
     */
    private static String ownFlagProblem(String name, FlagDialect dialect) {
        if (name.equals(FlagDialect.HOST) || name.equals(FlagDialect.PORT)) {
            return "flag " + name + " is one ServeBench sets itself: it starts " + dialect.engineName() + " on a free"
                    + " port of its choosing (listening on 127.0.0.1, or on every interface where load workers run on"
                    + " other nodes) and waits for it there; expected no " + FlagDialect.HOST + " or "
                    + FlagDialect.PORT + " among the flags";
        }
        return "flag " + name + " names the model, which ServeBench writes itself from @ServingBenchmark(model) (run"
                + " --model); expected the model there";
    }

    private static void checkFlags(StudyDescriptor study, List<String> flags, Optional<FlagCatalog> catalog,
                                   Optional<FlagDialect> dialect, BiFunction<String, Integer, Location> at,
                                   List<Problem> problems) {
        Map<String, Written> seen = new HashMap<>();
        for (int i = 0; i < flags.size(); i++) {
            String text = flags.get(i);
            String malformed = Flag.problem(text);
            if (malformed != null) {
                problems.add(new Problem(at.apply("flags", i), malformed));
                continue;
            }
            Flag flag = Flag.parse(text).orElseThrow();
            Location flagAt = at.apply("flags", i);
            if (flag.value() != null && Redaction.isSecretName(flag.name())) {
                problems.add(new Problem(flagAt, secretFlagProblem(flag.name())));
                continue;
            }
            // the setting the flag makes: an alias (SGLang's --model for --model-path) is the flag it stands for
            Flag setting = catalog.map(c -> c.canonical(flag)).orElse(flag);
            if (dialect.isPresent() && dialect.get().ownFlags().contains(setting.name())) {
                problems.add(new Problem(flagAt, ownFlagProblem(setting.name(), dialect.get())));
                continue;
            }
            catalog.flatMap(c -> catalogProblem(study, c, text, flag))
                    .ifPresent(problem -> problems.add(new Problem(flagAt, problem)));
            // the engine's parser keeps the last of two spellings of one setting (an alias, --no-NAME), so the study
            // would say one thing and the engine do another
            Written earlier = seen.putIfAbsent(setting.name(), new Written(setting, flag));
            if (earlier != null && !earlier.setting().equals(setting)) {
                problems.add(new Problem(at.apply("flags", i), "flag " + setting.name() + " is given twice with"
                        + " different values (" + (earlier.asWritten().name().equals(flag.name())
                        ? describeValue(earlier.asWritten()) + " and " + describeValue(flag)
                        : "as " + earlier.asWritten().toArg() + " and " + flag.toArg()) + "); expected it once"));
            }
            for (String name : Studies.placeholders(text)) {
                if (study.param(name).isEmpty()) {
                    problems.add(new Problem(at.apply("flags", i), "flag \"" + text + "\" names ${" + name
                            + "} but the study has no @Param field \"" + name + "\"; expected "
                            + (study.params().isEmpty() ? "a @Param field of that name"
                            : "one of " + study.params().stream().map(ParamSpec::name).toList())));
                }
            }
        }
    }

    /**
     * A key written into a study's flags would reach the console, the journal, the JMH JSON and every report with
     * the study's flags: ServeBench gives it to the engine from the environment instead.
     */
    private static String secretFlagProblem(String name) {
        String instead = name.equals(EngineFlags.SGLANG_ADMIN_API_KEY)
                ? "set it in the environment variable " + EngineFlags.ADMIN_API_KEY_ENV + ", from which ServeBench starts"
                + " sglang with " + name
                : name.equals(EngineFlags.VLLM.apiKey())
                ? "put it in an environment variable and name that with --api-key-env NAME: ServeBench then starts vllm"
                + " and sglang with " + name + " and sends it with every request"
                : "set it in the environment the run starts in, which the engine inherits";
        return "flag " + name + " gives a secret, which a study's flags would show on the console and in every"
                + " report; expected none: " + instead;
    }

    private static void checkWorkload(WorkloadOptions w, BiFunction<String, Integer, Location> at, List<Problem> problems) {
        if (w.profile() != null && !PROFILES.contains(w.profile())) {
            problems.add(new Problem(at.apply(WorkloadSetting.PROFILE.key(), -1), "unknown profile \"" + w.profile()
                    + "\"; expected one of " + String.join(", ", PROFILES)));
        }
        String datasetProblem = w.dataset() == null ? null : io.servebench.workload.Datasets.problem(w.dataset());
        if (datasetProblem != null) {
            problems.add(new Problem(at.apply(WorkloadSetting.DATASET.key(), -1), datasetProblem));
        }
        checkSetting(WorkloadSetting.RATE, w.rate(), at, problems);
        checkSetting(WorkloadSetting.CONCURRENCY, w.concurrency(), at, problems);
        loadShape(w).ifPresent(setting -> problems.add(new Problem(at.apply(setting.getKey(), -1), setting.getValue())));
        checkSetting(WorkloadSetting.REQUESTS, w.requests(), at, problems);
        checkSetting(WorkloadSetting.WARMUP, w.warmup(), at, problems);
        w.options().forEach((key, value) -> LoadOption.byKey(key).map(o -> o.problem(value))
                .ifPresent(problem -> problems.add(new Problem(at.apply(key, -1), problem))));
    }

    /**
     * A rate and a number of streams written together, or either with a profile that ignores it: the load would be
     * another than the one written, without a word (a rate given with concurrency ran the streams; a concurrency with
     * profile poisson ran the default rate). One {@code @Workload} (or one command line) at a time: a variant may
     * replace its class's rate by a closed loop of its own.
     *
     * @return the setting at fault and why, if any
     */
    private static Optional<Map.Entry<String, String>> loadShape(WorkloadOptions w) {
        if (w.profile() != null && !PROFILES.contains(w.profile())) {
            // an unknown profile is reported as that
            return Optional.empty();
        }
        if (w.rate() != null && w.concurrency() != null) {
            return Optional.of(Map.entry(WorkloadSetting.CONCURRENCY.key(),
                    "rate and concurrency are two kinds of load: a rate sends requests"
                    + " at that rate (an open loop), a concurrency keeps that many streams busy (a closed loop); expected"
                    + " one of them, or a rate with maxConcurrency (--max-concurrency) for at most N requests in flight"));
        }
        if (w.concurrency() != null && w.profile() != null && !Profile.CONCURRENT.equals(w.profile())) {
            return Optional.of(Map.entry(WorkloadSetting.CONCURRENCY.key(),
                    "concurrency is the concurrent profile's number of streams, and"
                    + " profile " + w.profile() + " would ignore it; expected profile concurrent with it, or"
                    + " maxConcurrency (--max-concurrency) to cap a rate profile's requests in flight"));
        }
        if (w.rate() != null && w.profile() != null
                && List.of(Profile.CONCURRENT, Profile.SYNCHRONOUS, Profile.THROUGHPUT).contains(w.profile())) {
            return Optional.of(Map.entry(WorkloadSetting.RATE.key(),
                    "profile " + w.profile() + " sends no requests at a rate, so the rate"
                    + " would be ignored; expected a rate profile (constant, poisson, gamma) with a rate, or no rate"));
        }
        return Optional.empty();
    }

    /**
     * Settings that are fine alone but not with the variant's profile, reported on the level (method or
     * class) that wrote the setting at fault, each once.
     */
    private static void checkCombination(StudyDescriptor study, int ordinal, List<Problem> problems) {
        VariantDescriptor variant = study.variants().get(ordinal);
        WorkloadOptions effective = Studies.effectiveWorkload(study, variant);
        String profile = effective.profile() == null ? WorkloadOptions.DEFAULTS.profile() : effective.profile();
        String dataset = effective.dataset() == null ? WorkloadOptions.DEFAULTS.dataset() : effective.dataset();
        combinationProblems(profile, dataset, effective.options()).forEach((setting, message) -> {
            boolean onMethod = setting.equals(WorkloadSetting.PROFILE.key()) ? variant.workload().profile() != null
                    : setting.equals(WorkloadSetting.DATASET.key()) ? variant.workload().dataset() != null
                    : variant.workload().options().containsKey(setting);
            Location at = onMethod ? Location.ofVariant(study, ordinal, "Workload", setting, -1)
                    : Location.ofClass(study, "Workload", setting, -1);
            Problem problem = new Problem(at, message);
            if (!problems.contains(problem)) {
                problems.add(problem);
            }
        });
    }

    /**
     * What is wrong with {@code options} and {@code dataset} under {@code profile}: setting name (an option key,
     * {@code "profile"} or {@code "dataset"}) to message; empty when they fit together.
     */
    public static Map<String, String> combinationProblems(String profile, String dataset, Map<String, String> options) {
        Map<String, String> found = new java.util.LinkedHashMap<>();
        if (Profile.TRACE.equals(profile) && !dataset.startsWith(DatasetKind.TRACE.id() + ":")) {
            found.put(WorkloadSetting.DATASET.key(),
                    "profile trace replays a trace's arrival times, but the dataset is " + dataset
                    + "; expected dataset = \"trace:PATH[,timeScale=X]\"");
        }
        boolean rateProfile = List.of(Profile.CONSTANT, Profile.POISSON, Profile.GAMMA).contains(profile);
        boolean closedLoop = List.of(Profile.CONCURRENT, Profile.SYNCHRONOUS).contains(profile);
        if (Profile.SWEEP.equals(profile) && !options.containsKey(LoadOption.SWEEP_RATES.key())) {
            found.put(WorkloadSetting.PROFILE.key(),
                    "profile sweep needs sweepRates; expected sweepRates = K (run --sweep-rates K on the"
                    + " command line), the number of constant rates to run between the synchronous and the throughput rate, as"
                    + " guidellm's --rate K with --rate-type sweep");
        }
        if (options.containsKey(LoadOption.SWEEP_RATES.key()) && !Profile.SWEEP.equals(profile)) {
            found.put(LoadOption.SWEEP_RATES.key(), "sweepRates applies only to profile sweep, but the profile is "
                    + profile + "; expected it only with profile = Profile.SWEEP");
        }
        if (options.containsKey(LoadOption.BURSTINESS.key()) && !Profile.GAMMA.equals(profile)) {
            found.put(LoadOption.BURSTINESS.key(), "burstiness applies only to profile gamma, but the profile is "
                    + profile + "; expected it only with profile = Profile.GAMMA");
        }
        if (options.containsKey(LoadOption.RAMP_UP_SECONDS.key()) && !rateProfile) {
            found.put(LoadOption.RAMP_UP_SECONDS.key(), "rampUpSeconds applies only to the rate profiles constant,"
                    + " poisson and gamma, but the profile is " + profile);
        }
        if (options.containsKey(LoadOption.MAX_CONCURRENCY.key()) && closedLoop) {
            found.put(LoadOption.MAX_CONCURRENCY.key(), "maxConcurrency caps open-loop profiles, but " + profile
                    + " is closed loop; expected concurrency = N for the number of streams instead");
        }
        String warmupSeconds = options.get(LoadOption.WARMUP_SECONDS.key());
        if (Profile.THROUGHPUT.equals(profile) && warmupSeconds != null && !isZero(warmupSeconds)) {
            found.put(LoadOption.WARMUP_SECONDS.key(), "warmupSeconds needs a profile that spreads requests over"
                    + " time, but throughput sends every request at once; expected warmup = N requests instead");
        }
        return found;
    }

    private static boolean isZero(String number) {
        try {
            return Double.parseDouble(number.strip()) == 0;
        } catch (NumberFormatException e) {
            // reported as not a number by the option's own check
            return false;
        }
    }

    private static void checkSetting(WorkloadSetting setting, Number value, BiFunction<String, Integer, Location> at,
                                     List<Problem> problems) {
        if (value != null && !setting.inRange(value.doubleValue())) {
            String text = LoadOption.format(value.doubleValue());
            problems.add(new Problem(at.apply(setting.key(), -1), setting.key() + " = " + text
                    + " is out of range; expected " + setting.expected() + LoadOption.unsetNote(text)));
        }
    }

    private static void checkParam(StudyDescriptor study, int ordinal, List<Problem> problems) {
        ParamSpec param = study.params().get(ordinal);
        if (!ParamSpec.SUPPORTED_TYPES.contains(param.type())) {
            problems.add(new Problem(Location.ofParam(study, ordinal, null, -1), "@Param field " + param.name()
                    + " has unsupported type " + param.type() + "; expected int, long, double, boolean or String"));
            return;
        }
        if (param.values().isEmpty()) {
            problems.add(new Problem(Location.ofParam(study, ordinal, "value", -1), "@Param field " + param.name()
                    + " has no values; expected at least one"));
            return;
        }
        WorkloadSetting setting = param.workloadSetting().orElse(null);
        if (setting != null) {
            Set<String> allowed = setting.wholeNumber() ? WHOLE_NUMBER_TYPES : NUMBER_TYPES;
            if (!allowed.contains(param.type())) {
                problems.add(new Problem(Location.ofParam(study, ordinal, null, -1), "workload @Param field " + param.name()
                        + " has type " + param.type() + "; expected " + alternatives(allowed.stream().sorted().toList())));
                return;
            }
        }
        for (int i = 0; i < param.values().size(); i++) {
            String value = param.values().get(i);
            Location at = Location.ofParam(study, ordinal, "value", i);
            if (!converts(value, param.type())) {
                problems.add(new Problem(at, "@Param value \"" + value + "\" of field " + param.name()
                        + " does not convert to " + param.type() + "; expected " + typeExpectation(param.type())));
            } else if (setting != null && !setting.inRange(Double.parseDouble(value))) {
                problems.add(new Problem(at, "@Param value \"" + value + "\" of field " + param.name()
                        + " is out of range; expected " + setting.expected()));
            }
        }
    }

    private static boolean converts(String value, String type) {
        try {
            switch (type) {
                case "int" -> Integer.parseInt(value);
                case "long" -> Long.parseLong(value);
                case "double" -> Double.parseDouble(value);
                case "boolean" -> {
                    return value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
                }
                case "String" -> {
                    return true;
                }
                default -> throw new IllegalArgumentException("unsupported @Param type " + type);
            }
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String typeExpectation(String type) {
        return switch (type) {
            case "int" -> "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
            case "long" -> "a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
            case "double" -> "a decimal number such as 0.5";
            case "boolean" -> "true or false";
            default -> "a value of type " + type;
        };
    }

    /** "a", "a or b", "a, b or c". */
    private static String alternatives(List<String> options) {
        int last = options.size() - 1;
        return last == 0 ? options.get(0) : String.join(", ", options.subList(0, last)) + " or " + options.get(last);
    }

    private static String unknownEngine(String kind) {
        return EngineKinds.unknown(kind);
    }

    private static String describeValue(Flag flag) {
        return flag.value() == null ? "a switch without value" : "\"" + flag.value() + "\"";
    }

    private static String constantValue(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read public constant Profile." + field.getName(), e);
        }
    }
}
