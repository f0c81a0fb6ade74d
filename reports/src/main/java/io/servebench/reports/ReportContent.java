package io.servebench.reports;

import io.servebench.annotations.Profile;
import io.servebench.compare.BaselineGroup;
import io.servebench.compare.Comparison;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.CapacityResult;
import io.servebench.results.PrefixCacheReset;
import io.servebench.results.RepetitionResult;
import io.servebench.results.RunResult;
import io.servebench.results.ServerEnvironment;
import io.servebench.results.ServerMetric;
import io.servebench.results.SweepStep;
import io.servebench.results.TuningResult;
import io.servebench.results.TwinBar;
import io.servebench.results.jmh.JmhJsonWriter;
import io.servebench.stats.Statistics;
import io.servebench.workload.Datasets;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What {@code summary.md} and {@code report.html} say about a run, in one language, without markup:
 * the comparison groups, the optimization summary, the recommended commands, the cross-rate tables,
 * the overview and each block's rows. The writers add the markup.
 *
 * <p>A value is the mean over repetitions; with three or more repetitions it is followed by
 * {@code ± scoreError} (99.9% Student-t). Absent metrics show as "—". The workload point of a block
 * is its values of {@link BaselineGroup#WORKLOAD_KEYS}.
 */
final class ReportContent {

    private static final Metric[] REFERENCE_DISTRIBUTIONS = {Metric.E2E_LATENCY, Metric.TTFT, Metric.TPOT, Metric.ITL};
    private static final Stat[] REFERENCE_STATS = {Stat.MEAN, Stat.MEDIAN, Stat.P95, Stat.P99};
    /** A trial's GPU figures, in the order a block shows them. */
    static final List<Metric> GPU_METRICS = List.of(Metric.GPU_ENERGY, Metric.ENERGY_PER_OUTPUT_TOKEN,
            Metric.ENERGY_PER_REQUEST, Metric.OUTPUT_TOKENS_PER_JOULE, Metric.COST_PER_MILLION_OUTPUT_TOKENS,
            Metric.GPU_POWER_MEAN, Metric.GPU_POWER_PEAK, Metric.GPU_UTILIZATION, Metric.GPU_MEMORY_PEAK,
            Metric.GPU_THROTTLED);

    private static final Metric[] EXTRA_DISTRIBUTIONS = {Metric.INTER_CHUNK_LATENCY, Metric.TIME_TO_FIRST_CONTENT,
        Metric.TTFT_FROM_SCHEDULE, Metric.E2E_FROM_SCHEDULE, Metric.SCHEDULE_LAG, Metric.CLIENT_QUEUE_WAIT};

    /**
     * A study's recommended variant and how to start it.
     *
     * @param study     the study's simple name
     * @param variant   the recommended block's display name
     * @param command   the serve command
     * @param simulated the engine dialect the simulated engine stood in for, {@code null} when a real engine ran
     * @param shortfall  for a study's own {@code @Recommended} variant that this run did not show significantly faster
     *                   than the baseline at every workload point where both ran: what it did show; {@code null} when
     *                   it did, or when a tuner chose the variant (its caveats say the same)
     */
    public record Recommendation(String study, String variant, String command, String simulated, String shortfall) {
    }

    /**
     * Baseline against recommended at every workload point where both ran, for one study.
     *
     * @param study the study's simple name
     * @param table point | baseline | recommended | speed-up with verdict
     */
    public record CrossRate(String study, Table table) {
    }

    /** One row of a block's table. */
    public record Row(String label, String value) {
    }

    /**
     * How a tuning study reached its recommendation, in words and tables.
     *
     * @param intro   what was tuned, where, by what
     * @param steps   each step's title and its candidates' table
     * @param result  the recommendation, as a sentence
     * @param caveats one sentence each, worded in the report's language
     */
    public record Tuning(String intro, List<Map.Entry<String, Table>> steps, String result, List<String> caveats) {
    }

    /**
     * One configuration's capacity under its SLOs.
     *
     * @param configuration the configuration's name, which the heading begins with (the writers set it in bold)
     * @param heading       the configuration and its capacity with the interval, as a sentence
     * @param table         load | met of measured | share | interval | goodput | verdict
     */
    public record Capacity(String configuration, String heading, Table table) {

        /** The heading after the configuration's name. */
        public String afterName() {
            return heading.substring(configuration.length());
        }
    }

    /** Each configuration's capacity, for a run with {@code --capacity}. */
    public List<Capacity> capacities() {
        List<Capacity> out = new ArrayList<>();
        for (CapacityResult c : run.capacities()) {
            String axis = c.axis().messageKey();
            String unit = messages.text("capacity.unit." + axis);
            String noun = messages.text("capacity.noun." + axis);
            List<List<String>> rows = new ArrayList<>();
            for (CapacityResult.Probe p : c.probes()) {
                rows.add(List.of(load(c, p.load()), p.met() + " / " + p.total(),
                        String.format(Locale.ROOT, "%.1f%%", 100 * p.share()),
                        String.format(Locale.ROOT, "%.1f–%.1f%%", 100 * p.low(), 100 * p.high()), Numbers.format(p.goodput()),
                        p.failure() != null ? messages.text("capacity.failed", p.failure())
                                : messages.text(p.share() >= c.target() ? "capacity.meets" : "capacity.misses")));
            }
            String high = Double.isInfinite(c.high()) ? messages.text("capacity.noUpper", noun) : load(c, c.high());
            String target = Numbers.count(100 * c.target());
            String heading = c.unbounded()
                    ? messages.text("capacity.unbounded", c.configuration(), load(c, c.capacity()), unit, noun, target,
                            c.slo(), noun, noun)
                    : c.capacity() > 0
                    ? messages.text("capacity.found", c.configuration(), load(c, c.capacity()), unit, load(c, c.low()),
                    high, target, c.slo())
                    : c.stoppedBy().map(p -> messages.text("capacity.stopped", c.configuration(), load(c, p.load()), unit,
                            noun))
                    .orElseGet(() -> messages.text("capacity.none", c.configuration(), noun, target, c.slo()));
            out.add(new Capacity(c.configuration(), heading, new Table(List.of(messages.text("capacity.col." + axis),
                    messages.text("capacity.col.met"), messages.text("capacity.col.share"), messages.text("capacity.col.interval"),
                    messages.text("capacity.col.goodput"), messages.text("capacity.col.verdict")), rows)));
        }
        return out;
    }

    /** A probed load: a rate as the reports write figures, a number of streams whole. */
    private static String load(CapacityResult c, double load) {
        return c.axis().isRate() ? Numbers.format(load) : Long.toString(Math.round(load));
    }

    /**
     * A candidate's verdict; one that did not differ from its base by the close-call margin is not repeated, and after
     * one repetition its interval is of within-run noise only, which the verdict says rather than call it a finding.
     */
    private String verdict(TuningResult.Candidate c) {
        String verdict = messages.text("tuning.verdict." + c.verdict().name());
        return c.verdict() == TuningResult.Verdict.NO_DIFFERENCE && c.repetitions() == 1
                ? messages.text("tuning.verdict.NO_DIFFERENCE.oneRepetition") : verdict;
    }

    /** The tuner's reasoning, when the run was a tuning study. */
    public Optional<Tuning> tuning() {
        TuningResult t = run.tuning();
        if (t == null) {
            return Optional.empty();
        }
        List<Map.Entry<String, Table>> steps = new ArrayList<>();
        for (TuningResult.Step step : t.steps()) {
            List<List<String>> rows = new ArrayList<>();
            for (TuningResult.Candidate c : step.candidates()) {
                boolean tested = !Double.isNaN(c.low());
                rows.add(List.of(c.name(), Numbers.format(c.mean()),
                        Double.isNaN(c.ratio()) ? Numbers.ABSENT : String.format(Locale.ROOT, "%.3f", c.ratio()),
                        tested ? String.format(Locale.ROOT, "%.3f–%.3f", c.low(), c.high()) : Numbers.ABSENT,
                        c.repetitions() == 0 ? Numbers.ABSENT : Integer.toString(c.repetitions()),
                        verdict(c)));
            }
            steps.add(Map.entry(messages.text("tuning.step", step.name(), step.base(), step.chosen()), new Table(List.of(
                    messages.text("tuning.col.candidate"), messages.text("tuning.col.mean", t.metric()),
                    messages.text("tuning.col.ratio"), messages.text("tuning.col.interval"), messages.text("tuning.col.reps"),
                    messages.text("tuning.col.verdict")), rows)));
        }
        // a rate's words take its unit after their own arguments: requests, or the conversations a multi-turn load paces
        String unit = rateUnit(run.blocks());
        return Optional.of(new Tuning(messages.text(t.concurrency() > 0 ? "tuning.intro.concurrency" : "tuning.intro",
                t.study(), t.concurrency() > 0 ? Integer.toString(t.concurrency()) : Numbers.count(t.rate()), t.metric(),
                Numbers.count(Math.round((t.closeCall() - 1) * 1000) / 10.0), t.maxRepetitions(), unit), steps,
                messages.text("tuning.result", t.recommended()), t.caveats().stream()
                .map(c -> messages.text("tuning.caveat." + c.code().name(),
                        Stream.concat(c.args().stream(), Stream.of(unit)).toArray())).toList()));
    }

    private final RunResult run;
    private final Messages messages;
    private final ComparisonText words;
    private final List<BaselineGroup> groups;
    /**
     * The workload settings beside the load axis (not profile, rate or concurrency) whose values differ among the run's
     * blocks, two datasets at one rate say: a block's {@link #point} names them too, or two blocks read alike.
     */
    private final List<String> varyingSettings;

    public ReportContent(RunResult run, ReportLanguage language) {
        this.run = Objects.requireNonNull(run, "run");
        this.messages = language.messages();
        this.words = new ComparisonText(messages);
        this.groups = BaselineGroup.of(run.blocks());
        this.varyingSettings = WorkloadSetting.besideTheLoad().stream()
                .filter(key -> run.blocks().stream().map(b -> Optional.ofNullable(b.params().get(key))).distinct().count() > 1)
                .toList();
    }

    public RunResult run() {
        return run;
    }

    public Messages messages() {
        return messages;
    }

    public ComparisonText words() {
        return words;
    }

    /** Which secondary metrics results.json leaves out of every entry because not every block has them, if any. */
    public Optional<String> jsonOmitted() {
        Map<String, Integer> omitted = JmhJsonWriter.omittedSecondaryMetrics(run);
        if (omitted.isEmpty()) {
            return Optional.empty();
        }
        int entries = JmhJsonWriter.entries(run);
        List<String> items = new ArrayList<>();
        omitted.forEach((name, count) -> items.add(messages.text("run.jsonOmitted.item", name, count, entries)));
        return Optional.of(messages.text("run.jsonOmitted", String.join(", ", items)));
    }

    /**
     * When the run ran one configuration at each workload point (a rate sweep of one server, say), so that nothing
     * is compared: the line that says so, and the reports leave out the empty optimization summary and comparisons.
     */
    public Optional<String> nothingCompared() {
        boolean compared = groups.stream().anyMatch(g -> !g.others().isEmpty()) || !recommendations().isEmpty();
        return compared || groups.isEmpty() ? Optional.empty() : Optional.of(messages.text("summary.nothingCompared"));
    }

    /** The comparison groups, in the order their first block appears in the run. */
    public List<BaselineGroup> groups() {
        return groups;
    }

    /** "LatencyTuning at model = …, rate = 8, …": a group's heading. */
    public String heading(BaselineGroup g) {
        List<String> point = new ArrayList<>();
        g.workload().forEach((k, v) -> point.add(k + " = " + v));
        return point.isEmpty() ? simpleName(g.className())
                : messages.text("comparisons.point", simpleName(g.className()), String.join(", ", point));
    }

    /**
     * "rate 8 req/s", "rate 2 conversations/s" or "concurrency 4": where on the load axis a block ran; followed by the
     * settings that differ among the run's blocks beside it ("rate 8 req/s · dataset=synthetic-sharegpt"), if any.
     */
    public String point(BlockResult t) {
        return axisPoint(t) + beside(t);
    }

    /**
     * " · dataset=synthetic-sharegpt": the block's settings that differ among the run's blocks, or nothing; not the cap
     * of an all-at-once block, which its point states.
     */
    String beside(BlockResult t) {
        boolean capStated = Profile.THROUGHPUT.equals(t.params().get(WorkloadSetting.PROFILE.key()));
        String beside = varyingSettings.stream().filter(t.params()::containsKey)
                .filter(key -> !(capStated && key.equals(LoadOption.MAX_CONCURRENCY.key())))
                .map(key -> key + "=" + t.params().get(key)).collect(Collectors.joining(", "));
        return beside.isEmpty() ? "" : " · " + beside;
    }

    /**
     * What the rates of {@code blocks} count: {@code req/s}, {@code conversations/s} where every one paces multi-turn
     * conversations ({@link BlockResult#pacesConversations()}), or both, said, where they mix.
     */
    public String rateUnit(List<BlockResult> blocks) {
        return byRateKind(blocks, Datasets.REQUEST_RATE_UNIT, Datasets.CONVERSATION_RATE_UNIT,
                messages.text("unit.rate.mixed"));
    }

    /** A chart's or a table's heading for the rates of {@code blocks}, in their unit ({@link #rateUnit}). */
    public String rateAxis(List<BlockResult> blocks) {
        return messages.text(byRateKind(blocks, "axis.rate", "axis.rate.conversations", "axis.rate.mixed"));
    }

    /** {@code requests} where no block's rate paces conversations, {@code conversations} where every one's does. */
    static <T> T byRateKind(List<BlockResult> blocks, T requests, T conversations, T mixed) {
        long pacing = blocks.stream().filter(BlockResult::pacesConversations).count();
        return pacing == 0 ? requests : pacing == blocks.size() ? conversations : mixed;
    }

    private String axisPoint(BlockResult t) {
        if (t.params().containsKey(WorkloadSetting.RATE.key())) {
            return messages.text(t.pacesConversations() ? "point.rate.conversations" : "point.rate",
                    t.params().get(WorkloadSetting.RATE.key()));
        }
        if (t.params().containsKey(WorkloadSetting.CONCURRENCY.key())) {
            return messages.text("point.concurrency", t.params().get(WorkloadSetting.CONCURRENCY.key()));
        }
        // a block paced by neither: its profile says how it sent ("concurrency —" read as if a setting were missing)
        String profile = t.params().getOrDefault(WorkloadSetting.PROFILE.key(), "");
        // a sweep's step names the load it ran (the constant steps have their rate)
        if (Profile.SWEEP.equals(profile) && t.params().containsKey(BlockResult.SWEEP_STEP)) {
            profile = SweepStep.profile(t.params().get(BlockResult.SWEEP_STEP)).orElse(profile);
        }
        String cap = t.params().get(LoadOption.MAX_CONCURRENCY.key());
        return switch (profile) {
            case Profile.THROUGHPUT -> cap == null ? messages.text("point.allAtOnce")
                    : messages.text("point.allAtOnce.capped", cap);
            case Profile.SYNCHRONOUS -> messages.text("point.synchronous");
            case Profile.TRACE -> messages.text("point.trace");
            default -> messages.text("point.concurrency", Numbers.ABSENT);
        };
    }

    /** Case | group | optimized | baseline | comparison: one row per block compared with its baseline. */
    public Table optimizationSummary() {
        List<List<String>> rows = new ArrayList<>();
        for (BaselineGroup g : groups) {
            if (g.baseline() == null) {
                continue;
            }
            String baselineCell = g.baseline().displayName() + " = " + meanLatency(g.baseline()) + " s";
            for (BlockResult t : g.others()) {
                String caseName = simpleName(g.className()) + " · " + point(t);
                Optional<Comparison> c = g.comparison(t);
                rows.add(List.of(caseName, t.group(),
                        c.map(x -> t.displayName() + " = " + Numbers.format(x.variantMean()) + " s").orElse(t.displayName()),
                        baselineCell, c.map(words::cell).orElse(messages.text("summary.noLatency"))));
            }
        }
        return new Table(List.of(messages.text("summary.case"), messages.text("summary.group"),
                messages.text("summary.variant"), messages.text("summary.baseline"), messages.text("summary.comparison")),
                rows);
    }

    /** One recommendation per study that marks a variant {@code @Recommended} and whose command is known. */
    public List<Recommendation> recommendations() {
        Map<String, Recommendation> byStudy = new LinkedHashMap<>();
        for (BlockResult t : run.blocks()) {
            if (t.recommended() && !byStudy.containsKey(t.className())) {
                Optional.ofNullable(t.serveCommand()).ifPresent(c -> byStudy.put(t.className(), new Recommendation(
                        simpleName(t.className()), t.displayName(), c.command(), c.simulated() ? c.engineName() : null,
                        run.tuning() == null ? shortfall(t.className()) : null)));
            }
        }
        return List.copyOf(byStudy.values());
    }

    /**
     * What this run showed of a study's {@code @Recommended} variant against its baseline, when that is not
     * "significantly faster" at every workload point where both ran: the points counted by verdict, so that a
     * recommendation the measurements do not bear out is not read as one they do.
     */
    private String shortfall(String className) {
        int faster = 0;
        int undecided = 0;
        int same = 0;
        int slower = 0;
        int untested = 0;
        for (BaselineGroup g : groups) {
            if (!g.className().equals(className) || g.baseline() == null) {
                continue;
            }
            for (BlockResult rec : g.others().stream().filter(BlockResult::recommended).toList()) {
                Optional<Comparison> c = g.comparison(rec);
                if (c.isEmpty() || c.get().method() == Comparison.Method.NONE
                        || c.get().method() == Comparison.Method.UNKNOWN_SPREAD) {
                    untested++;
                } else if (c.get().undecided()) {
                    undecided++;
                } else if (!c.get().significant()) {
                    same++;
                } else if (c.get().slower()) {
                    slower++;
                } else {
                    faster++;
                }
            }
        }
        int points = faster + undecided + same + slower + untested;
        if (points == 0 || faster == points) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        parts.add(messages.text("recommended.shortfall.faster", faster, points));
        if (undecided > 0) {
            parts.add(messages.text("recommended.shortfall.undecided", undecided));
        }
        if (same > 0) {
            parts.add(messages.text("recommended.shortfall.same", same));
        }
        if (slower > 0) {
            parts.add(messages.text("recommended.shortfall.slower", slower));
        }
        if (untested > 0) {
            parts.add(messages.text("recommended.shortfall.untested", untested));
        }
        return messages.text("recommended.shortfall", String.join(messages.text("list.separator"), parts));
    }

    /**
     * Per study with a recommended variant that ran at two or more workload points next to the
     * baseline: one row per point. The first column is the rate (or concurrency) when that is what
     * varies, else the whole point.
     */
    public List<CrossRate> crossRates() {
        List<CrossRate> tables = new ArrayList<>();
        Map<String, List<BaselineGroup>> byStudy = new LinkedHashMap<>();
        for (BaselineGroup g : groups) {
            if (g.baseline() != null && g.others().stream().anyMatch(BlockResult::recommended)) {
                byStudy.computeIfAbsent(g.className(), k -> new ArrayList<>()).add(g);
            }
        }
        byStudy.forEach((className, studyGroups) -> {
            if (studyGroups.size() < 2) {
                return;
            }
            String axis = Stream.of(WorkloadSetting.RATE, WorkloadSetting.CONCURRENCY).map(WorkloadSetting::key)
                    .filter(key -> varying(studyGroups, key)).findFirst().orElse(null);
            List<List<String>> rows = new ArrayList<>();
            for (BaselineGroup g : studyGroups) {
                BlockResult rec = g.others().stream().filter(BlockResult::recommended).findFirst().orElseThrow();
                Optional<Comparison> c = g.comparison(rec);
                rows.add(List.of(axis == null ? String.join(", ", g.workload().values())
                                : g.workload().get(axis) + beside(g.baseline()),
                        meanLatency(g.baseline()), c.map(x -> Numbers.format(x.variantMean())).orElse(Numbers.ABSENT),
                        c.map(words::cell).orElse(messages.text("summary.noLatency"))));
            }
            String first = axis == null ? String.join(", ", studyGroups.get(0).workload().keySet())
                    : axis.equals(WorkloadSetting.RATE.key()) ? rateAxis(studyGroups.stream().map(BaselineGroup::baseline).toList())
                    : messages.text("axis." + axis);
            tables.add(new CrossRate(simpleName(className), new Table(List.of(first,
                    messages.text("crossrate.baseline"), messages.text("crossrate.recommended"),
                    messages.text("crossrate.speedup")), rows)));
        });
        return List.copyOf(tables);
    }

    private static boolean varying(List<BaselineGroup> groups, String key) {
        return groups.stream().map(g -> g.workload().get(key)).filter(Objects::nonNull).distinct().count() > 1;
    }

    /** For the comparisons section: "prefix-caching", "sentence; verdict" per compared block. */
    public List<Row> comparisonLines(BaselineGroup g) {
        List<Row> lines = new ArrayList<>();
        for (BlockResult t : g.others()) {
            Optional<Comparison> c = g.comparison(t);
            String text = c.map(x -> messages.text("comparisons.line", words.sentence(x), words.verdict(x))).orElseGet(() -> t.failure() != null
                    ? messages.text("comparisons.noLatencyBecause", t.variant(), t.failure())
                    : messages.text("comparisons.noLatency", t.variant()));
            lines.add(new Row(t.group(), text));
        }
        return lines;
    }

    /** One row per block with the numbers people look at first. */
    public Table overview() {
        List<List<String>> rows = new ArrayList<>();
        // blocks sent at a rate are told apart by it; with any other load (streams, all at once), each says its own
        boolean rates = run.blocks().stream().allMatch(t -> t.params().containsKey(WorkloadSetting.RATE.key()));
        for (BlockResult t : run.blocks()) {
            List<RepetitionResult> reps = t.repetitions();
            String role = t.baseline() ? messages.text("role.baseline") : t.recommended() ? messages.text("role.recommended") : "";
            String group = (t.group() + " " + role).strip();
            List<String> row = new ArrayList<>(List.of(blockName(t) + (rates ? beside(t) : ""), group,
                    rates ? t.params().get(WorkloadSetting.RATE.key()) : point(t)));
            if (reps.isEmpty()) {
                row.add(stateCell(t));
                row.addAll(List.of("", "", "", "", ""));
            } else {
                if (!t.succeeded()) {
                    // a trial that failed or was cut short after some repetitions completed: their numbers, and why
                    row.set(1, (row.get(1) + " " + stateCell(t)).strip());
                }
                row.addAll(List.of(value(reps, Metric.E2E_LATENCY, Stat.MEAN), value(reps, Metric.TTFT, Stat.MEDIAN),
                        value(reps, Metric.TPOT, Stat.MEDIAN), value(reps, Metric.ITL, Stat.MEDIAN),
                        value(reps, Metric.OUTPUT_THROUGHPUT, null), count(reps, Metric.FAILED_REQUESTS)));
            }
            rows.add(row);
        }
        return new Table(List.of(messages.text("overview.block"), messages.text("overview.group"),
                messages.text(rates ? "overview.rate" : "overview.load", rateUnit(run.blocks())), messages.text("overview.meanLatency"), messages.text("overview.medianTtft"),
                messages.text("overview.medianTpot"), messages.text("overview.medianItl"), messages.text("overview.output"),
                messages.text("overview.failed")), rows);
    }

    /** A trial that is not complete, in a table cell: {@code failed: ...}, {@code interrupted (SIGINT) ...}, {@code not run}. */
    private String stateCell(BlockResult t) {
        return t.state() == BlockResult.State.FAILED ? messages.text("role.failed", headline(t.failure()))
                : t.state() == BlockResult.State.NOT_RUN ? messages.text("overview.notRun") : headline(t.failure());
    }

    /**
     * For a run whose trials are not all complete, one sentence for its first screen: how many completed, failed, were
     * cut short or not run, and how to go on; empty when every trial is complete.
     */
    public Optional<String> runState() {
        Map<String, BlockResult> trials = new LinkedHashMap<>();
        run.blocks().forEach(b -> trials.putIfAbsent(b.trialId(), b));
        Map<BlockResult.State, Long> counts = new java.util.EnumMap<>(BlockResult.State.class);
        trials.values().forEach(b -> counts.merge(b.state(), 1L, Long::sum));
        long complete = counts.getOrDefault(BlockResult.State.COMPLETE, 0L);
        if (run.searchStopped()) {
            // the blocks are what an interrupted tuner or capacity search had asked for: nothing says what it left
            return Optional.of(messages.text("run.searchStopped", complete, trials.size()));
        }
        if (complete == trials.size()) {
            return Optional.empty();
        }
        return Optional.of(messages.text("run.state", complete, trials.size(),
                counts.getOrDefault(BlockResult.State.FAILED, 0L), counts.getOrDefault(BlockResult.State.INTERRUPTED, 0L),
                counts.getOrDefault(BlockResult.State.NOT_RUN, 0L)));
    }

    /**
     * For a block whose trial is not complete, what happened and what its figures are; empty for a complete one.
     */
    public Optional<String> blockState(BlockResult t) {
        if (t.succeeded()) {
            return Optional.empty();
        }
        String what = messages.text("block.state." + t.state().name(), t.failure());
        return Optional.of(t.repetitions().isEmpty() ? what : what + " " + messages.text("block.state.kept",
                t.repetitions().size()));
    }

    /**
     * The block's repetitions that did not complete, one row each with what they measured, which counts in none of the
     * block's figures; empty when every repetition that ran completed.
     */
    public Optional<Table> incomplete(BlockResult t) {
        if (t.incomplete().isEmpty()) {
            return Optional.empty();
        }
        List<List<String>> rows = new ArrayList<>();
        for (io.servebench.results.IncompleteRepetition r : t.incomplete()) {
            List<RepetitionResult> measured = r.measured() == null ? List.of() : List.of(r.measured());
            rows.add(List.of(Integer.toString(r.number()), messages.text("incomplete.kind." + r.kind().name()), r.reason(),
                    count(measured, Metric.SUCCESSFUL_REQUESTS), count(measured, Metric.FAILED_REQUESTS),
                    count(measured, Metric.CANCELLED_REQUESTS), value(measured, Metric.E2E_LATENCY, Stat.MEAN),
                    r.records() == null ? Numbers.ABSENT : r.records()));
        }
        return Optional.of(new Table(List.of(messages.text("incomplete.repetition"), messages.text("incomplete.state"),
                messages.text("incomplete.why"), Metric.SUCCESSFUL_REQUESTS.label(), Metric.FAILED_REQUESTS.label(),
                Metric.CANCELLED_REQUESTS.label(), Metric.E2E_LATENCY.label(Stat.MEAN), messages.text("incomplete.records")),
                rows));
    }

    /** A failure's first sentence: an engine's log tail belongs in the block, not in a table cell. */
    static String headline(String failure) {
        String first = failure.lines().findFirst().orElse(failure);
        int see = first.indexOf("; see ");
        return see > 0 ? first.substring(0, see) : first;
    }

    /**
     * One row per server: what ran where (engine version, GPUs, machine), so results can be told apart; a server started
     * again alike (a tuner's later round) is one row that counts its starts.
     */
    public Table servers() {
        Map<List<String>, Integer> starts = new LinkedHashMap<>();
        for (ServerEnvironment e : run.servers()) {
            starts.merge(List.of(e.serverId(), e.engine(), orAbsent(e.engineVersion()),
                    e.gpus().isEmpty() ? messages.text("servers.noGpu") : String.join("; ", e.gpus()),
                    String.join(", ", List.of(e.cpu(), e.host(), e.os(), e.jdk())), e.servebenchVersion(), orAbsent(e.command())),
                    1, Integer::sum);
        }
        List<List<String>> rows = new ArrayList<>();
        starts.forEach((row, n) -> {
            List<String> cells = new ArrayList<>(row);
            if (n > 1) {
                cells.set(0, messages.text("servers.starts", row.get(0), n));
            }
            rows.add(cells);
        });
        return new Table(List.of(messages.text("servers.server"), messages.text("servers.engine"), messages.text("servers.version"),
                messages.text("servers.gpus"), messages.text("servers.machine"), "ServeBench", messages.text("servers.command")), rows);
    }

    private static String orAbsent(String text) {
        return text == null || text.isEmpty() ? Numbers.ABSENT : text;
    }

    /**
     * "Engines: ...": what served the run's trials, the simulated engine's mode named; for the simulated engine, that
     * its figures are a rehearsal, whose error bars {@link #twinBars()} lists.
     */
    public String engines() {
        String engines = messages.text("run.engines", messages.text(switch (run.engines()) {
            case DECLARED -> "run.engines.declared";
            case SIMULATED -> "run.engines.simulated";
            case SIMULATED_PROCESS -> "run.engines.simulatedProcess";
            case VIRTUAL -> "run.engines.virtual";
        }));
        return twinBars().isEmpty() ? engines : engines + " " + messages.text("run.engines.rehearsal");
    }

    /**
     * For the simulated engine, each kind of set-up's error bar in each load regime and the flags it did not model, a
     * line each, every server's once: the first screen lists them under {@link #engines()}. Empty for real engines.
     */
    public List<String> twinBars() {
        List<String> lines = new ArrayList<>();
        for (ServerEnvironment server : run.servers()) {
            // the regimes its blocks ran in; a server whose blocks say none (or that ran none) shows both
            List<Optional<TwinBar.Regime>> regimes = run.blocks().stream()
                    .filter(b -> b.serverId().equals(server.serverId())).map(ReportContent::regime).distinct().toList();
            boolean all = regimes.isEmpty() || regimes.contains(Optional.<TwinBar.Regime>empty());
            lines.addAll(twinLines(server, r -> all || regimes.contains(Optional.of(r))));
        }
        return lines.stream().distinct().toList();
    }

    /**
     * The load regime a block's requests arrived in, by the rule its published evidence is grouped by: at a rate, as
     * it spread them; all at once, one at a time or in a closed loop, unpaced; empty where the block's settings do not
     * say (a trace's times).
     */
    private static Optional<TwinBar.Regime> regime(BlockResult b) {
        String rate = b.params().get(WorkloadSetting.RATE.key());
        String requests = b.params().get(WorkloadSetting.REQUESTS.key());
        if (rate != null && requests != null) {
            try {
                return Optional.of(TwinBar.Regime.of(Double.parseDouble(rate), Long.parseLong(requests)));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        String profile = b.params().getOrDefault(WorkloadSetting.PROFILE.key(), "");
        return profile.equals(Profile.THROUGHPUT) || profile.equals(Profile.CONCURRENT) || profile.equals(Profile.SYNCHRONOUS)
                || profile.equals(Profile.SWEEP) ? Optional.of(TwinBar.Regime.UNPACED) : Optional.empty();
    }

    /**
     * One server's error bars in the regimes {@code shown} accepts, a line each, then the flags the twin took but did not
     * model.
     */
    private List<String> twinLines(ServerEnvironment server, java.util.function.Predicate<TwinBar.Regime> shown) {
        List<String> lines = new ArrayList<>();
        for (TwinBar bar : server.twinBars()) {
            if (!shown.test(bar.regime())) {
                continue;
            }
            String setUp = messages.text("twin.setUp", io.servebench.flags.FlagCatalog.engineName(bar.engine()),
                    messages.text("twin.arch." + bar.architecture()), messages.text(switch (bar.gpus()) {
                        case ONE -> "twin.gpus.one";
                        case SEVERAL -> "twin.gpus.several";
                        case EXPERT_PARALLEL -> "twin.gpus.expertParallel";
                    }, gpuName(bar.gpu())));
            String regime = messages.text(bar.regime() == TwinBar.Regime.PACED ? "twin.regime.paced" : "twin.regime.unpaced");
            String line = bar.unvalidated() ? messages.text("twin.bar.unvalidated", setUp, regime)
                    : messages.text(bar.cases() == 1 ? "twin.bar.one" : "twin.bar.many", setUp, regime,
                    percent(bar.maxError()), percent(bar.meanError()), bar.cases(), bar.figures());
            if (bar.leans()) {
                // which way: a twin too fast at saturation is a ± that only ever errs one side
                boolean faster = bar.medianSpeedRatio() >= 1;
                line += messages.text(faster ? "twin.lean.faster" : "twin.lean.slower",
                        faster ? bar.fasterFigures() : bar.figures() - bar.fasterFigures(), bar.figures(),
                        percent(Math.abs(bar.medianSpeedRatio() - 1)));
            }
            TwinBar.HeldOut c = bar.calibration();
            if (c != null) {
                line += messages.text("twin.heldOut", c.model(), Numbers.bound(c.fitRate()), c.blocks(),
                        percent(c.maxError()), percent(c.meanError()), c.figures());
            }
            lines.add(line);
        }
        if (!server.twinNotModelled().isEmpty()) {
            lines.add(messages.text("twin.notModelled", String.join(" ", server.twinNotModelled())));
        }
        return lines;
    }

    /** A GPU's id as NVIDIA writes the name: h100 as H100, h100-pcie as H100 PCIe. */
    private static String gpuName(String id) {
        return id.toUpperCase(Locale.ROOT).replace("-PCIE", " PCIe");
    }

    /** A fraction as a whole percentage, without the sign: 0.214 as 21. */
    private static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f", 100 * fraction);
    }

    /** {@code LatencyTuning.maxNumSeqs[128]}: the class's simple name and the block's display name. */
    public static String blockName(BlockResult trial) {
        return simpleName(trial.className()) + "." + trial.displayName();
    }

    /** "LatencyTuning.vllm · rate 8 req/s". */
    public String blockTitle(BlockResult trial) {
        return messages.text("block.title", blockName(trial), point(trial));
    }

    /** The block's warnings ({@link Warnings}), each a sentence. */
    public List<String> warnings(BlockResult trial) {
        return Warnings.of(trial, messages).stream().map(Warnings.Warning::message).toList();
    }

    /** What a reader must know about how the block's repetitions ran (a stop condition that ended one early). */
    public List<String> notes(BlockResult trial) {
        List<RepetitionResult> reps = trial.repetitions();
        // a note that every repetition carries word for word is said once, the others with the repetitions they are of
        Map<String, java.util.Set<Integer>> of = new java.util.LinkedHashMap<>();
        for (int r = 0; r < reps.size(); r++) {
            for (String note : reps.get(r).notes()) {
                of.computeIfAbsent(note, n -> new java.util.TreeSet<>()).add(r + 1);
            }
        }
        List<String> notes = new ArrayList<>();
        of.forEach((note, numbers) -> notes.add(reps.size() <= 1 || numbers.size() == reps.size() ? note
                : numbers.size() == 1 ? messages.text("note.repetition", numbers.iterator().next(), note)
                : messages.text("note.repetitions", numbers.stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(", ")), note)));
        return notes;
    }

    /**
     * Mean TTFT by turn of the conversations, a column per multi-turn block that ran (means over its repetitions): the
     * table beside report.html's chart, where variants (prefix caching on and off) show how each turn's wait grows with
     * the history it carries. Empty when no block ran conversations of two turns or more.
     */
    public Optional<Table> ttftByTurn() {
        List<BlockResult> blocks = run.blocks().stream().filter(BlockResult::succeeded)
                .filter(t -> t.repetitions().stream().anyMatch(r -> r.turns().size() >= 2)).toList();
        if (blocks.isEmpty()) {
            return Optional.empty();
        }
        List<TreeMap<Integer, List<RepetitionResult>>> perBlock = blocks.stream().map(ReportContent::byTurn).toList();
        java.util.TreeSet<Integer> turns = new java.util.TreeSet<>();
        perBlock.forEach(b -> turns.addAll(b.keySet()));
        List<List<String>> rows = new ArrayList<>();
        for (int turn : turns) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(turn)));
            perBlock.forEach(b -> row.add(value(b.getOrDefault(turn, List.of()), Metric.TTFT, Stat.MEAN)));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of(messages.text("turns.turn")));
        // blocks at several load points share their names: each column then says its point
        boolean points = blocks.stream().map(this::point).distinct().count() > 1;
        blocks.forEach(t -> header.add(t.displayName() + (points ? " · " + point(t) : "")));
        return Optional.of(new Table(header, rows));
    }

    /**
     * Each multi-turn variant's TTFT of each turn against its baseline's at the same workload point, worded as the block
     * comparisons are (the same rule, and the same noise: the repetitions' means with two or more a side, else the
     * per-request bootstrap that decides nothing): a prefix cache that keeps the history shows in the later turns. Empty
     * when no variant ran conversations of two turns or more beside a baseline that did.
     */
    public Optional<Table> ttftByTurnAgainstBaseline() {
        List<BaselineGroup> multiTurn = groups.stream().filter(g -> g.baseline() != null && g.baseline().succeeded()
                && byTurn(g.baseline()).size() >= 2).toList();
        List<String> header = new ArrayList<>(List.of(messages.text("turns.turn")));
        List<java.util.function.IntFunction<String>> columns = new ArrayList<>();
        java.util.TreeSet<Integer> turns = new java.util.TreeSet<>();
        for (BaselineGroup g : multiTurn) {
            TreeMap<Integer, List<RepetitionResult>> base = byTurn(g.baseline());
            for (BlockResult other : g.others()) {
                TreeMap<Integer, List<RepetitionResult>> of = byTurn(other);
                if (!other.succeeded() || of.size() < 2) {
                    continue;
                }
                turns.addAll(base.keySet());
                turns.addAll(of.keySet());
                header.add(messages.text("turns.against", other.displayName(), g.baseline().displayName())
                        + (multiTurn.size() > 1 ? " · " + point(other) : ""));
                columns.add(turn -> {
                    BlockResult a = turnOf(g.baseline(), base.getOrDefault(turn, List.of()));
                    BlockResult b = turnOf(other, of.getOrDefault(turn, List.of()));
                    return Comparison.comparable(a) && Comparison.comparable(b)
                            ? words.cell(Comparison.of(a, b, Metric.TTFT)) : Numbers.ABSENT;
                });
            }
        }
        if (columns.isEmpty()) {
            return Optional.empty();
        }
        List<List<String>> rows = new ArrayList<>();
        for (int turn : turns) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(turn)));
            columns.forEach(column -> row.add(column.apply(turn)));
            rows.add(row);
        }
        return Optional.of(new Table(header, rows));
    }

    /** The block as if it had measured one turn of its conversations: those metrics as its repetitions. */
    private static BlockResult turnOf(BlockResult block, List<RepetitionResult> turn) {
        return new BlockResult(block.benchmark(), block.className(), block.variant(), block.group(), block.baseline(),
                block.params(), block.trialId(), block.serverId(), turn, null);
    }

    /** A multi-turn block's metrics of each turn of its conversations, one per repetition that had it, by turn. */
    static TreeMap<Integer, List<RepetitionResult>> byTurn(BlockResult trial) {
        TreeMap<Integer, List<RepetitionResult>> perTurn = new TreeMap<>();
        for (RepetitionResult r : trial.repetitions()) {
            r.turns().forEach((turn, metrics) -> perTurn.computeIfAbsent(Integer.parseInt(turn), k -> new ArrayList<>())
                    .add(metrics));
        }
        return perTurn;
    }

    /**
     * One of a block's breakdowns under its heading.
     *
     * @param heading the sentence above the table, worded
     * @param table   the figures per time slice, replica, model or turn
     */
    public record Breakdown(String heading, Table table) {
    }

    /**
     * The block's figures broken down, each where it has them: per time slice, per replica of its engine, per model of
     * its mix, per turn of its conversations; in that order, as both reports show them.
     */
    public List<Breakdown> breakdowns(BlockResult trial) {
        List<Breakdown> out = new ArrayList<>();
        slices(trial).ifPresent(t -> out.add(new Breakdown(messages.text("slices.heading"), t)));
        endpoints(trial).ifPresent(t -> out.add(new Breakdown(messages.text("endpoints.heading"), t)));
        models(trial).ifPresent(t -> out.add(new Breakdown(messages.text("models.heading"), t)));
        turns(trial).ifPresent(t -> out.add(new Breakdown(messages.text("turns.heading"), t)));
        return out;
    }

    /**
     * A multi-turn block's metrics per turn of its conversations (means over repetitions, as the block's own); empty
     * for single turns.
     */
    private Optional<Table> turns(BlockResult trial) {
        TreeMap<Integer, List<RepetitionResult>> perTurn = byTurn(trial);
        if (perTurn.isEmpty()) {
            return Optional.empty();
        }
        List<List<String>> rows = new ArrayList<>();
        perTurn.forEach((turn, of) -> rows.add(List.of(Integer.toString(turn), count(of, Metric.SUCCESSFUL_REQUESTS),
                count(of, Metric.TOTAL_INPUT_TOKENS), value(of, Metric.TTFT, Stat.MEAN), value(of, Metric.TTFT, Stat.P99),
                value(of, Metric.ITL, Stat.MEAN), value(of, Metric.E2E_LATENCY, Stat.MEAN))));
        return Optional.of(new Table(List.of(messages.text("turns.turn"), Metric.SUCCESSFUL_REQUESTS.label(),
                Metric.TOTAL_INPUT_TOKENS.label(), Metric.TTFT.label(Stat.MEAN), Metric.TTFT.label(Stat.P99),
                Metric.ITL.label(Stat.MEAN), Metric.E2E_LATENCY.label(Stat.MEAN)), rows));
    }

    /**
     * A mixed workload's figures per model or LoRA adapter (means over repetitions, as the block's own), in the mix's
     * order; empty for one model.
     */
    private Optional<Table> models(BlockResult trial) {
        return perGroup(trial, RepetitionResult::models, messages.text("models.model"), name -> name);
    }

    /**
     * The figures per replica of an engine at several URLs (means over repetitions, as the block's own), in the engine's
     * order; empty for one.
     */
    private Optional<Table> endpoints(BlockResult trial) {
        return perGroup(trial, RepetitionResult::endpoints, messages.text("endpoints.endpoint"), url -> url);
    }

    /**
     * A long block's figures per time slice (means over repetitions, as the block's own), so that drift and a slow
     * degradation show; empty for a block too short to slice.
     */
    private Optional<Table> slices(BlockResult trial) {
        return perGroup(trial, RepetitionResult::slices, messages.text("slices.slice"), start -> {
            double seconds = mean(trial.repetitions().stream().map(r -> r.slices().get(start))
                    .filter(java.util.Objects::nonNull).toList(), r -> r.value(Metric.DURATION));
            return messages.text("slices.span", start, Numbers.format(Long.parseLong(start) + seconds));
        });
    }

    /**
     * The block's figures per group of its requests ({@code groups} of each repetition: its slices, its models), one row
     * each, named by {@code label}: requests, throughput, TTFT, ITL and latency; empty when it has no groups.
     */
    private Optional<Table> perGroup(BlockResult trial, Function<RepetitionResult, Map<String, RepetitionResult>> groups,
                                     String header, Function<String, String> label) {
        List<RepetitionResult> reps = trial.repetitions();
        java.util.Set<String> keys = new java.util.LinkedHashSet<>();
        reps.forEach(r -> keys.addAll(groups.apply(r).keySet()));
        if (keys.isEmpty()) {
            return Optional.empty();
        }
        List<List<String>> rows = new ArrayList<>();
        for (String key : keys) {
            List<RepetitionResult> of = reps.stream().map(r -> groups.apply(r).get(key)).filter(java.util.Objects::nonNull)
                    .toList();
            rows.add(List.of(label.apply(key), count(of, Metric.SUCCESSFUL_REQUESTS), count(of, Metric.FAILED_REQUESTS),
                    value(of, Metric.OUTPUT_THROUGHPUT, null), value(of, Metric.TTFT, Stat.MEAN),
                    value(of, Metric.TTFT, Stat.P99), value(of, Metric.ITL, Stat.MEAN), value(of, Metric.E2E_LATENCY, Stat.MEAN),
                    value(of, Metric.E2E_LATENCY, Stat.P99)));
        }
        return Optional.of(new Table(List.of(header, Metric.SUCCESSFUL_REQUESTS.label(), Metric.FAILED_REQUESTS.label(),
                Metric.OUTPUT_THROUGHPUT.label(), Metric.TTFT.label(Stat.MEAN), Metric.TTFT.label(Stat.P99),
                Metric.ITL.label(Stat.MEAN), Metric.E2E_LATENCY.label(Stat.MEAN), Metric.E2E_LATENCY.label(Stat.P99)), rows));
    }

    /**
     * A long block's figures per time slice as lines to draw, each point at its slice's middle (s) with the mean over
     * repetitions: output throughput, mean and P99 TTFT, mean E2E latency; empty for a block too short to slice.
     */
    public Map<String, List<double[]>> sliceSeries(BlockResult trial) {
        List<RepetitionResult> reps = trial.repetitions();
        java.util.Set<String> starts = new java.util.TreeSet<>(java.util.Comparator.comparingLong(Long::parseLong));
        reps.forEach(r -> starts.addAll(r.slices().keySet()));
        Map<String, List<double[]>> series = new java.util.LinkedHashMap<>();
        List<Map.Entry<Metric, Stat>> shown = List.of(Map.entry(Metric.OUTPUT_THROUGHPUT, Stat.MEAN),
                Map.entry(Metric.TTFT, Stat.MEAN), Map.entry(Metric.TTFT, Stat.P99), Map.entry(Metric.E2E_LATENCY, Stat.MEAN));
        for (Map.Entry<Metric, Stat> m : shown) {
            List<double[]> points = new ArrayList<>();
            for (String start : starts) {
                List<RepetitionResult> of = reps.stream().map(r -> r.slices().get(start)).filter(java.util.Objects::nonNull)
                        .toList();
                double[] v = values(of, m.getKey(), m.getValue());
                double seconds = mean(of, r -> r.value(Metric.DURATION));
                points.add(new double[] {Long.parseLong(start) + (Double.isNaN(seconds) ? 0 : seconds / 2),
                        v.length == 0 ? Double.NaN : Statistics.mean(v)});
            }
            series.put(m.getKey().kind() == Metric.Kind.SCALAR ? m.getKey().label() : m.getKey().label(m.getValue()), points);
        }
        return starts.isEmpty() ? Map.of() : series;
    }

    /** The block's table: the reference study's block, in its order, then ServeBench's additions. */
    public List<Row> rows(BlockResult trial) {
        List<RepetitionResult> reps = trial.repetitions();
        List<Row> rows = new ArrayList<>();
        rows.add(new Row(Metric.SUCCESSFUL_REQUESTS.label(), count(reps, Metric.SUCCESSFUL_REQUESTS)));
        rows.add(new Row("Maximum request concurrency", trial.params().getOrDefault(WorkloadSetting.CONCURRENCY.key(),
                messages.text("block.openLoop", Numbers.ABSENT))));
        rows.add(new Row(Metric.DURATION.label(), value(reps, Metric.DURATION, null)));
        rows.add(new Row(Metric.TOTAL_INPUT_TOKENS.label(), count(reps, Metric.TOTAL_INPUT_TOKENS)));
        rows.add(new Row(Metric.TOTAL_OUTPUT_TOKENS.label(), count(reps, Metric.TOTAL_OUTPUT_TOKENS)));
        rows.add(new Row(Metric.REQUEST_THROUGHPUT.label(), value(reps, Metric.REQUEST_THROUGHPUT, null)));
        rows.add(new Row(Metric.OUTPUT_THROUGHPUT.label(), value(reps, Metric.OUTPUT_THROUGHPUT, null)));
        rows.add(new Row(Metric.PEAK_OUTPUT_THROUGHPUT.label(), value(reps, Metric.PEAK_OUTPUT_THROUGHPUT, null)));
        rows.add(new Row(Metric.MAX_CONCURRENCY.label(), count(reps, Metric.MAX_CONCURRENCY)));
        rows.add(new Row(Metric.TOTAL_THROUGHPUT.label(), value(reps, Metric.TOTAL_THROUGHPUT, null)));
        for (Metric m : REFERENCE_DISTRIBUTIONS) {
            for (Stat s : REFERENCE_STATS) {
                rows.add(new Row(m.label(s), value(reps, m, s)));
            }
        }
        rows.add(new Row(Metric.FAILED_REQUESTS.label(), count(reps, Metric.FAILED_REQUESTS)));
        for (Metric m : List.of(Metric.CANCELLED_REQUESTS, Metric.TIMED_OUT_REQUESTS)) {
            // only loads that cancel requests or limit them have these rows
            if (reps.stream().anyMatch(r -> r.value(m).isPresent())) {
                rows.add(new Row(m.label(), count(reps, m)));
            }
        }
        rows.add(new Row(messages.text("block.timeWeighted", Metric.MEAN_CONCURRENCY.label()),
                value(reps, Metric.MEAN_CONCURRENCY, null)));
        String slo = trial.params().get(BlockResult.SLO);
        rows.add(new Row(Metric.GOODPUT.label() + (slo == null ? "" : " (" + slo + ")"), value(reps, Metric.GOODPUT, null)));
        rows.add(new Row(Metric.SLO_ATTAINMENT.label(), value(reps, Metric.SLO_ATTAINMENT, null)));
        rows.add(new Row(Metric.ACHIEVED_SEND_RATE.label(), value(reps, Metric.ACHIEVED_SEND_RATE, null)));
        rows.add(new Row(Metric.SCHEDULED_SEND_RATE.label(), value(reps, Metric.SCHEDULED_SEND_RATE, null)));
        for (Metric m : EXTRA_DISTRIBUTIONS) {
            // client queueing exists only under a concurrency cap: no rows of dashes for every other block
            if (m == Metric.CLIENT_QUEUE_WAIT && reps.stream().allMatch(r -> r.distribution(m).isEmpty())) {
                continue;
            }
            for (Stat s : REFERENCE_STATS) {
                rows.add(new Row(m.label(s), value(reps, m, s)));
            }
        }
        rows.add(new Row(messages.text("block.tokenEvents"), Numbers.count(mean(reps, r -> OptionalDouble.of(r.tokenEvents())))));
        rows.add(new Row(messages.text("block.coalescedEvents"),
                Numbers.count(mean(reps, r -> OptionalDouble.of(r.coalescedEvents())))));
        rows.add(new Row(Metric.EVENTS_PER_READ_MAX.label(), count(reps, Metric.EVENTS_PER_READ_MAX)));
        rows.add(new Row(Metric.HARNESS_HEAP_PEAK.label(), value(reps, Metric.HARNESS_HEAP_PEAK, null)));
        rows.add(new Row(Metric.HARNESS_RSS_PEAK.label(), value(reps, Metric.HARNESS_RSS_PEAK, null)));
        for (Metric m : GPU_METRICS) {
            // a run without GPU telemetry shows no rows of dashes
            if (reps.stream().anyMatch(r -> r.value(m).isPresent())) {
                rows.add(new Row(m.label(), value(reps, m, null)));
            }
        }
        serverRows(reps, rows);
        rows.add(new Row(messages.text("block.outputTokensFrom"), totals(reps, RepetitionResult::outputTokenSources)));
        rows.add(new Row(messages.text("block.errors"), totals(reps, RepetitionResult::errorKinds)));
        reps.stream().flatMap(r -> r.errorExamples().entrySet().stream()).findFirst().ifPresent(e ->
                rows.add(new Row(messages.text("block.errorExample"), e.getKey() + ": \"" + e.getValue() + "\"")));
        rows.add(new Row(messages.text("block.cacheReset"), cacheResets(reps)));
        // caps the engine applied on its own, which no flag of the study shows (SGLang's 48 with speculation)
        run.servers().stream().filter(e -> e.serverId().equals(trial.serverId())).findFirst().ifPresent(e -> {
            if (!e.engineLimits().isEmpty()) {
                rows.add(new Row(messages.text("block.engineLimits"), String.join("; ", e.engineLimits())));
            }
            // how far a simulated block's figures can be trusted: the twin against published results of its kind
            Optional<TwinBar.Regime> regime = regime(trial);
            List<String> twin = twinLines(e, r -> regime.isEmpty() || regime.get() == r);
            if (!twin.isEmpty()) {
                rows.add(new Row(messages.text("block.twinEvidence"), String.join("; ", twin)));
            }
        });
        return rows;
    }

    /** Before how many of the repetitions the prefix cache was emptied; why not, where the engine offers no reset. */
    private String cacheResets(List<RepetitionResult> reps) {
        List<PrefixCacheReset> known = reps.stream().map(RepetitionResult::cacheReset).filter(java.util.Objects::nonNull)
                .toList();
        if (known.isEmpty()) {
            return Numbers.ABSENT;
        }
        if (known.stream().allMatch(r -> r.outcome() == PrefixCacheReset.Outcome.NOT_OFFERED)) {
            return messages.text("block.cacheReset.notOffered", known.get(0).detail());
        }
        long emptied = known.stream().filter(PrefixCacheReset::emptied).count();
        return messages.text(emptied == reps.size() ? "block.cacheReset.all" : "block.cacheReset.some", emptied,
                reps.size());
    }

    /** The engine's own metrics ({@code /metrics} deltas), or one row saying it offered none. */
    private void serverRows(List<RepetitionResult> reps, List<Row> rows) {
        boolean any = false;
        for (ServerMetric m : ServerMetric.values()) {
            double[] v = reps.stream().map(r -> r.value(m)).filter(OptionalDouble::isPresent)
                    .mapToDouble(OptionalDouble::getAsDouble).toArray();
            if (v.length > 0) {
                any = true;
                double error = Statistics.scoreError(v);
                boolean counter = m == ServerMetric.PREEMPTIONS || m == ServerMetric.PROMPT_TOKENS
                        || m == ServerMetric.GENERATION_TOKENS;
                String mean = counter ? Numbers.count(Statistics.mean(v)) : Numbers.format(Statistics.mean(v));
                String shown = Double.isFinite(error) ? mean + " ± " + Numbers.formatLike(error, Statistics.mean(v)) : mean;
                rows.add(new Row(m.label(), bucket(reps, m).map(b -> messages.text("block.server.bucket", shown,
                        Numbers.bound(b[0]), Numbers.bound(b[1]))).orElse(shown)));
            }
        }
        if (!any) {
            boolean leftOut = reps.stream().flatMap(r -> r.notes().stream())
                    .anyMatch(n -> n.startsWith(ServerMetric.LEFT_OUT_NOTE));
            rows.add(new Row(messages.text("block.serverMetrics"),
                    messages.text(leftOut ? "block.serverMetrics.leftOut" : "block.serverMetrics.none")));
        }
    }

    /**
     * The histogram bucket a quantile of the engine's own lies in, over every repetition that has it (the lowest bound
     * to the highest): what the engine's histogram knows of it, where the value is interpolation; empty for a metric
     * that is no quantile, or where a repetition lacks the bounds.
     */
    private static Optional<double[]> bucket(List<RepetitionResult> reps, ServerMetric m) {
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (RepetitionResult r : reps) {
            if (r.value(m).isEmpty()) {
                continue;
            }
            Double l = r.serverMetrics().get(ServerMetric.bucketKey(m, false));
            Double h = r.serverMetrics().get(ServerMetric.bucketKey(m, true));
            if (l == null || h == null) {
                return Optional.empty();
            }
            low = Math.min(low, l);
            high = Math.max(high, h);
        }
        // a bucket of one value (every write on time: 0 to 0) says the value is exact
        return low < high ? Optional.of(new double[] {low, high}) : Optional.empty();
    }

    /** Mean over repetitions of the block's mean E2E latency, formatted; "—" when absent. */
    private static String meanLatency(BlockResult t) {
        return Numbers.format(mean(t.repetitions(), r -> r.number(Metric.E2E_LATENCY, Stat.MEAN)));
    }

    /** Mean over repetitions of a number, NaN when every repetition lacks it. */
    static double mean(List<RepetitionResult> reps, Function<RepetitionResult, OptionalDouble> number) {
        return reps.stream().map(number).filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble)
                .average().orElse(Double.NaN);
    }

    /** Each repetition's value of a number, skipping repetitions that lack it. */
    static double[] values(List<RepetitionResult> reps, Metric metric, Stat stat) {
        return reps.stream().map(r -> r.number(metric, stat)).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).toArray();
    }

    /** Mean over repetitions, with {@code ± scoreError} when there are 3 or more. */
    static String value(List<RepetitionResult> reps, Metric metric, Stat stat) {
        double[] v = values(reps, metric, stat);
        if (v.length == 0) {
            return Numbers.ABSENT;
        }
        String mean = Numbers.format(Statistics.mean(v));
        double error = Statistics.scoreError(v);
        // the error to the mean's decimals, as JMH prints a score's: not "6.23 ± 0.0000000000000198" for equal values
        return Double.isFinite(error) ? mean + " ± " + Numbers.formatLike(error, Statistics.mean(v)) : mean;
    }

    private static String count(List<RepetitionResult> reps, Metric metric) {
        return Numbers.count(mean(reps, r -> r.value(metric)));
    }

    /** "USAGE 1000, TOKENIZER 3" summed over repetitions; "none" when empty. */
    private String totals(List<RepetitionResult> reps, Function<RepetitionResult, Map<String, Long>> counts) {
        Map<String, Long> sum = new TreeMap<>();
        reps.forEach(r -> counts.apply(r).forEach((k, v) -> sum.merge(k, v, Long::sum)));
        if (sum.isEmpty()) {
            return messages.text("block.none");
        }
        List<String> parts = new ArrayList<>();
        sum.forEach((k, v) -> parts.add(k + " " + v));
        String joined = String.join(", ", parts);
        return reps.size() > 1 ? messages.text("block.allRepetitions", joined) : joined;
    }

    static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
