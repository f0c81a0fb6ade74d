package io.servebench.tuning;

import io.servebench.annotations.Profile;
import io.servebench.compare.Comparison;
import io.servebench.measure.Metric;
import io.servebench.plan.TrialPlanner;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.BlockResult;
import io.servebench.results.CapacityResult;
import io.servebench.results.Caveat.Code;
import io.servebench.results.Caveat;
import io.servebench.results.TuningResult.Verdict;
import io.servebench.results.TuningResult;
import io.servebench.study.Studies;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.TuneParams;
import io.servebench.study.VariantDescriptor;
import io.servebench.workload.Datasets;
import io.servebench.workload.LoadOption;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The reference study's method as code: engine selection, one option group at a time on the winner, the winners
 * combined and checked against their parts, then baseline against the recommendation across rates. It decides only
 * from what its {@link Measurer} returns, so tests can script the measurements; {@link AdaptiveRun} measures for real.
 *
 * <p>A candidate wins only when it is significantly better than its step's base ({@link Comparison}'s 95% interval
 * excludes 1), and, of several such, a later-declared one only when it is significantly better than the one declared
 * before it. A difference that is not significant but larger than the close-call ratio gets one more repetition on
 * both sides, until it is significant or the repetition budget is spent.
 */
public final class Tuner {

    /** Measures configurations; each call returns the blocks in the order of the candidates. */
    public interface Measurer {
        /**
         * Each candidate with at least {@code repetitions} repetitions: those measured before keep theirs and get only
         * the missing ones.
         */
        List<BlockResult> measure(List<Candidate> candidates, int repetitions);

        /** Marks the recommendation, whose blocks the reports then show as recommended at every rate. */
        void recommend(Candidate recommended);
    }

    /**
     * Where the tuner measures: at a rate (open loop; of requests, or of conversations for a multi-turn load), or at the
     * study's own number of closed-loop streams.
     *
     * @param axis what the load is: a rate of requests or of conversations, or streams
     * @param load the rate, per second, or the number of streams (whole, at least 1)
     */
    public record Point(CapacityResult.Axis axis, double load) {

        public Point {
            java.util.Objects.requireNonNull(axis, "axis");
            if (!axis.isRate()) {
                load = Math.max(1, Math.round(load));
            }
        }

        /** At a rate of requests. */
        public static Point atRate(double rate) {
            return new Point(CapacityResult.Axis.RATE, rate);
        }

        public static Point atConcurrency(int concurrency) {
            return new Point(CapacityResult.Axis.CONCURRENCY, concurrency);
        }

        /** The point at {@code load} along {@code axis}: a rate, or a whole number of streams. */
        public static Point of(CapacityResult.Axis axis, double load) {
            return new Point(axis, load);
        }

        /**
         * Where {@code workload} sends: at its rate (of conversations for a multi-turn dataset, else of requests), or at
         * its number of closed-loop streams; empty for any other load (all at once, one at a time, a sweep, a trace).
         */
        public static Optional<Point> of(WorkloadParams workload) {
            if (workload.hasRate()) {
                return Optional.of(of(CapacityResult.Axis.rate(Datasets.pacesConversations(workload.dataset())),
                        workload.rate()));
            }
            return Profile.CONCURRENT.equals(workload.profile()) ? Optional.of(atConcurrency(workload.concurrency()))
                    : Optional.empty();
        }

        public boolean hasRate() {
            return axis.isRate();
        }

        /** The rate, per second; NaN at a concurrency. */
        public double rate() {
            return hasRate() ? load : Double.NaN;
        }

        /** The streams, each sending its next request when its last ends; 0 at a rate. */
        public int concurrency() {
            return hasRate() ? 0 : (int) load;
        }

        /** The point at another load of the same kind (another rate of the same unit, other streams). */
        public Point at(double otherLoad) {
            return new Point(axis, otherLoad);
        }

        /** {@code 8 req/s}, {@code 2 conversations/s}, {@code concurrency 64}: for the console, whose lines are English. */
        public String label() {
            return hasRate() ? LoadOption.format(load) + " " + axis.unit() : "concurrency " + concurrency();
        }
    }

    /**
     * One configuration at one load point: a variant of the study (as declared, or made by the tuner on another base or
     * as a combination) at a point of its non-workload parameters.
     *
     * @param variant     the variant, flags not yet substituted
     * @param paramValues the values of the parameters its flags name
     * @param point       where it is measured: a request rate, or a number of closed-loop streams
     */
    public record Candidate(VariantDescriptor variant, Map<String, String> paramValues, Point point) {

        public Candidate {
            paramValues = Map.copyOf(new LinkedHashMap<>(paramValues));
        }

        /** At a request rate. */
        public Candidate(VariantDescriptor variant, Map<String, String> paramValues, double rate) {
            this(variant, paramValues, Point.atRate(rate));
        }

        /** Its request rate, requests/s; NaN at a concurrency. */
        public double rate() {
            return point.rate();
        }

        /** The configuration's name in the reports: the variant, then its parameter values. */
        public String name() {
            return paramValues.isEmpty() ? variant.name() : variant.name() + " (" + paramValues.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey()).map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(", ")) + ")";
        }

        public Candidate at(Point other) {
            return new Candidate(variant, paramValues, other);
        }
    }

    /**
     * What ranking by capacity searches for: the share of requests that must meet the SLOs, and the SLOs as text.
     */
    public record CapacityTarget(double share, String slo) {
    }

    /** The name of the step and the variant that combines the winning options. */
    static final String COMBINATION = "combination";

    private final StudyDescriptor study;
    private final TuneParams params;
    private final Point point;
    /** What the ranked figure reads as: {@link TuneParams#label(String)} at this point. */
    private final String label;
    private final Measurer measurer;
    private final Consumer<String> progress;
    private final List<Caveat> caveats = new ArrayList<>();
    private final Optional<CapacityTarget> capacityTarget;
    private final Map<String, CapacityResult> capacities = new LinkedHashMap<>();

    /** A tuner at a request rate: {@link #Tuner(StudyDescriptor, TuneParams, Point, Measurer, Consumer, Optional)}. */
    public Tuner(StudyDescriptor study, TuneParams params, double rate, Measurer measurer, Consumer<String> progress,
          Optional<CapacityTarget> capacityTarget) {
        this(study, params, Point.atRate(rate), measurer, progress, capacityTarget);
    }

    /**
     * @param point    the tuning point: a request rate, or the study's concurrency
     * @param progress told each step as it begins ({@code option group 2 of 4: max-num-seqs})
     * @param capacityTarget what a capacity ranking searches for; empty unless {@code params} ranks by capacity
     * @throws IllegalArgumentException for validation rates at a concurrency, and validation concurrencies at a rate
     */
    public Tuner(StudyDescriptor study, TuneParams params, Point point, Measurer measurer, Consumer<String> progress,
          Optional<CapacityTarget> capacityTarget) {
        if (params.byCapacity() && capacityTarget.isEmpty()) {
            throw new IllegalArgumentException("a tuner that ranks by capacity needs SLOs and a share to meet");
        }
        if (!point.hasRate() && !params.validationRates().isEmpty()
                || point.hasRate() && !params.validationConcurrencies().isEmpty()) {
            throw new IllegalArgumentException("a tuner at a concurrency validates at no request rate, and one at a rate"
                    + " at no concurrency");
        }
        this.point = point;
        this.label = params.label(point.axis().unit());
        this.capacityTarget = capacityTarget;
        this.study = study;
        this.params = params;
        this.measurer = measurer;
        this.progress = progress;
    }

    /** Runs the method and says how it reached its recommendation. */
    public TuningResult tune() {
        List<String> groups = optionGroups();
        boolean validating = !validationPoints().isEmpty() && !params.byCapacity();
        int stepCount = 1 + groups.size() + 1 + (validating ? 1 : 0);
        if (params.byCapacity() && !params.validationRates().isEmpty()) {
            caveats.add(Caveat.of(Code.VALIDATION_RATES_UNUSED));
        }
        if (params.metric() == Metric.OUTPUT_THROUGHPUT && point.hasRate()) {
            caveats.add(Caveat.of(Code.THROUGHPUT_AT_A_RATE, format(point)));
        }
        int stepNo = 0;
        List<TuningResult.Step> steps = new ArrayList<>();

        progress.accept(String.format("step %d of %d: %s", ++stepNo, stepCount, params.engineGroup()));
        Candidate baseline = new Candidate(baselineVariant(), Map.of(), point);
        List<Candidate> engines = new ArrayList<>(List.of(baseline));
        study.variants().stream().filter(v -> v.group().equals(params.engineGroup()) && !v.baseline())
                .forEach(v -> engines.addAll(points(v)));
        Decision engine = decide(params.engineGroup(), baseline, engines.subList(1, engines.size()));
        steps.add(engine.step());
        Candidate winner = engine.chosen();

        List<Candidate> parts = new ArrayList<>();
        for (String group : groups) {
            progress.accept(String.format("step %d of %d: option group %s", ++stepNo, stepCount, group));
            List<Candidate> options = new ArrayList<>();
            List<String> notTried = new ArrayList<>();
            for (VariantDescriptor v : study.variants().stream().filter(v -> v.group().equals(group)).toList()) {
                Optional<VariantDescriptor> onWinner = onto(winner.variant(), v);
                if (onWinner.isPresent()) {
                    options.addAll(points(onWinner.get()));
                } else {
                    notTried.add(v.name());
                }
            }
            if (!notTried.isEmpty()) {
                caveats.add(Caveat.of(Code.GROUP_NOT_TRIED, group, String.join(", ", notTried), study.engineKind(),
                        Studies.effectiveEngine(study, winner.variant())));
            }
            Decision d = decide(group, winner, options);
            List<TuningResult.Candidate> rows = new ArrayList<>(d.step().candidates());
            notTried.forEach(n -> rows.add(new TuningResult.Candidate(n, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0,
                    Verdict.NOT_TRIED)));
            steps.add(new TuningResult.Step(group, d.step().base(), d.step().chosen(), rows));
            if (d.chosen() != winner) {
                parts.add(d.chosen());
            }
        }

        progress.accept(String.format("step %d of %d: %s", ++stepNo, stepCount, COMBINATION));
        Candidate recommended = combine(winner, parts, steps);
        if (!recommended.equals(baseline)) {
            measurer.recommend(recommended);
        }

        List<TuningResult.Validation> validation = new ArrayList<>();
        if (validating) {
            progress.accept(String.format("step %d of %d: validation at %s", ++stepNo, stepCount, point.hasRate()
                    ? params.validationRates().stream().map(LoadOption::format).collect(Collectors.joining(", "))
                    + " " + point.axis().unit() : "concurrency " + params.validationConcurrencies().stream().map(String::valueOf)
                    .collect(Collectors.joining(", "))));
            validation.addAll(validate(baseline, recommended));
        }
        if (recommended.equals(baseline)) {
            caveats.add(point.hasRate() ? Caveat.of(Code.NOTHING_BETTER, format(point))
                    : Caveat.of(Code.NOTHING_BETTER_AT_CONCURRENCY, Integer.toString(point.concurrency())));
        }
        return new TuningResult(simpleName(study.className()), label, point.rate(), point.concurrency(), steps,
                recommended.name(),
                validation, caveats, params.closeCall(), params.maxRepetitions());
    }

    /** The groups tuned after engine selection, in declaration order. */
    private List<String> optionGroups() {
        Set<String> groups = new LinkedHashSet<>();
        study.variants().stream().map(VariantDescriptor::group)
                .filter(g -> !g.isEmpty() && !g.equals(params.engineGroup())).forEach(groups::add);
        return List.copyOf(groups);
    }

    private VariantDescriptor baselineVariant() {
        return study.variants().stream().filter(VariantDescriptor::baseline).findFirst().orElseThrow(() ->
                new IllegalArgumentException(study.className() + " has @Tune but no @Baseline variant; expected one"
                        + " (the baseline engine with its baseline flags)"));
    }

    /**
     * {@code option} laid onto {@code base}: base's engine, base's own flags, then the option's. Empty when the option
     * is written for another engine than base's.
     */
    private Optional<VariantDescriptor> onto(VariantDescriptor base, VariantDescriptor option) {
        String baseEngine = Studies.effectiveEngine(study, base);
        if (!Studies.effectiveEngine(study, option).equals(baseEngine)) {
            return Optional.empty();
        }
        List<String> flags = new ArrayList<>(base.flags());
        flags.addAll(option.flags());
        return Optional.of(new VariantDescriptor(option.name(), option.group(), flags, base.engine(), false, option.workload()));
    }

    /** The variant at each point of the non-workload parameters its flags name. */
    private List<Candidate> points(VariantDescriptor v) {
        Map<String, List<String>> axes = new LinkedHashMap<>();
        Studies.paramsUsedBy(study, v).stream().filter(p -> !p.isWorkloadParam()).forEach(p -> axes.put(p.name(), p.values()));
        return TrialPlanner.product(axes).stream().map(values -> new Candidate(v, values, point)).toList();
    }

    private record Decision(Candidate chosen, TuningResult.Step step) {
    }

    /** Every candidate against base; the best significantly better one is chosen, else base stays. */
    private Decision decide(String name, Candidate base, List<Candidate> candidates) {
        List<Candidate> all = new ArrayList<>(List.of(base));
        all.addAll(candidates);
        // all at once first, so that trials of one server configuration share its start
        measurer.measure(all, 1);
        List<Outcome> outcomes = compare(candidates.stream().map(c -> new Pair(base, c)).toList());
        // Of those better than the base, a later one replaces the one chosen so far only when it is significantly better
        // than it: noise between two good options does not pick one, and the one declared first (the simpler, as a
        // study lists them) stays.
        Outcome best = null;
        for (Outcome o : outcomes) {
            if (o.better() && (best == null || compare(best.candidate(), o.candidate()).better())) {
                best = o;
            }
        }
        List<TuningResult.Candidate> rows = new ArrayList<>();
        rows.add(baseRow(base));
        for (Outcome o : outcomes) {
            rows.add(o.row(o == best ? Verdict.CHOSEN : o.better() ? Verdict.BETTER_NOT_BEST : o.verdict()));
        }
        return new Decision(best == null ? base : best.candidate(), new TuningResult.Step(name, base.name(),
                best == null ? base.name() : best.candidate().name(), rows));
    }

    /**
     * A candidate against a base on the primary metric.
     *
     * @param baseScore   the base's score (the metric's statistic, or its capacity)
     * @param score       the candidate's
     * @param low         the interval of {@code score / baseScore}, low end; NaN when the rule gives none
     * @param high        high end
     * @param significant whether the difference is significant
     * @param better      whether the candidate is significantly better
     * @param failure     why there is nothing to compare, {@code null} when there is
     */
    private record Outcome(Candidate candidate, double baseScore, double score, double low, double high,
                           boolean significant, boolean better, int repetitions, String failure) {

        static Outcome failed(Candidate candidate, String failure) {
            return new Outcome(candidate, Double.NaN, Double.NaN, Double.NaN, Double.NaN, false, false, 0, failure);
        }

        /**
         * A comparison of means or percentiles: better when significantly lower, or for a figure that is higher the
         * better ({@code higherIsBetter}) significantly higher.
         */
        static Outcome of(Candidate candidate, Comparison c, int repetitions, boolean higherIsBetter) {
            double low = c.estimate() == null ? Double.NaN : c.estimate().low();
            double high = c.estimate() == null ? Double.NaN : c.estimate().high();
            return new Outcome(candidate, c.baselineMean(), c.variantMean(), low, high, c.significant(),
                    c.significant() && c.slower() == higherIsBetter, repetitions, null);
        }

        Verdict verdict() {
            if (failure != null) {
                return Verdict.FAILED;
            }
            return !significant ? Verdict.NO_DIFFERENCE : better ? Verdict.CHOSEN : Verdict.WORSE;
        }

        TuningResult.Candidate row(Verdict verdict) {
            return new TuningResult.Candidate(candidate.name(), score, score / baseScore, low, high, repetitions, verdict);
        }
    }

    /** One comparison, with more repetitions on both sides while it is too close to call and the budget allows. */
    private Outcome compare(Candidate base, Candidate candidate) {
        return compare(List.of(new Pair(base, candidate))).get(0);
    }

    /** A candidate measured against a base. */
    private record Pair(Candidate base, Candidate candidate) {
    }

    /**
     * Comparisons side by side, each as {@link #compare(Candidate, Candidate)} decides it; every further repetition is
     * asked for all the comparisons still too close to call at once, so that the trials of one server configuration
     * share its start (on a GPU, minutes of loading a model each). The outcomes, and the caveats, in the order of
     * {@code pairs}.
     */
    private List<Outcome> compare(List<Pair> pairs) {
        if (params.byCapacity()) {
            return pairs.stream().map(p -> compareCapacity(p.base(), p.candidate())).toList();
        }
        Outcome[] outcomes = new Outcome[pairs.size()];
        Caveat[] closeCalls = new Caveat[pairs.size()];
        List<Integer> open = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i++) {
            open.add(i);
        }
        for (int r = 1; !open.isEmpty(); r++) {
            List<Candidate> asked = new ArrayList<>();
            for (int i : open) {
                asked.add(pairs.get(i).base());
                asked.add(pairs.get(i).candidate());
            }
            List<BlockResult> blocks = measurer.measure(asked, r);
            List<Integer> stillOpen = new ArrayList<>();
            for (int k = 0; k < open.size(); k++) {
                int i = open.get(k);
                Pair pair = pairs.get(i);
                BlockResult a = blocks.get(2 * k);
                BlockResult b = blocks.get(2 * k + 1);
                if (!comparable(a) || !comparable(b)) {
                    BlockResult failed = comparable(a) ? b : a;
                    outcomes[i] = Outcome.failed(pair.candidate(), failed.failure() == null ? "no " + label : failed.failure());
                    continue;
                }
                Comparison c = Comparison.of(a, b, params.metric(), params.stat());
                int repetitions = Math.min(a.repetitions().size(), b.repetitions().size());
                boolean closeCall = !c.significant() && c.ratio() >= params.closeCall();
                if (closeCall && r < params.maxRepetitions()) {
                    stillOpen.add(i);
                    continue;
                }
                if (closeCall) {
                    boolean worse = c.slower() != params.higherIsBetter();
                    Code code = params.ranksATime() ? worse ? Code.NOT_SIGNIFICANT_SLOWER : Code.NOT_SIGNIFICANT_FASTER
                            : worse ? Code.NOT_SIGNIFICANT_WORSE : Code.NOT_SIGNIFICANT_BETTER;
                    closeCalls[i] = Caveat.of(code, pair.candidate().name(), pair.base().name(), ratio(c.ratio()),
                            Integer.toString(repetitions));
                }
                outcomes[i] = Outcome.of(pair.candidate(), c, repetitions, params.higherIsBetter());
            }
            open = stillOpen;
        }
        for (Caveat closeCall : closeCalls) {
            if (closeCall != null) {
                caveats.add(closeCall);
            }
        }
        return List.of(outcomes);
    }

    /**
     * Higher is better: each side's capacity under the SLOs, searched once. The candidate is significantly better when
     * it met the target at a rate at or above one where the base missed it beyond doubt (its 95% interval wholly below
     * the target), and worse the other way round. Meeting a 99% target beyond doubt would take more requests per probe
     * than a search can afford (300 of 300 is not), while missing it beyond doubt is what saturation looks like.
     */
    private Outcome compareCapacity(Candidate base, Candidate candidate) {
        CapacityResult a = capacity(base);
        CapacityResult b = capacity(candidate);
        boolean higher = b.capacity() > 0 && b.capacity() >= a.high();
        boolean lower = a.capacity() > 0 && a.capacity() >= b.high();
        return new Outcome(candidate, a.capacity(), b.capacity(), Double.NaN, Double.NaN, higher || lower, higher, 1, null);
    }

    private CapacityResult capacity(Candidate c) {
        CapacityTarget target = capacityTarget.orElseThrow();
        // at a rate, the highest rate; at a concurrency, the most closed-loop streams
        CapacityResult.Axis axis = c.point().axis();
        return capacities.computeIfAbsent(c.name(), name -> new CapacitySearch(target.share(),
                CapacitySearch.DEFAULT_PRECISION, CapacitySearch.DEFAULT_PROBES).search(name, target.slo(), axis,
                c.point().load(), load -> CapacitySearch.attained(measurer.measure(List.of(c.at(Point.of(axis, load))), 1)
                        .get(0))));
    }

    /**
     * The winning options together on the winner: measured against the winner, and against each part alone; a
     * combination that loses to a part significantly is reported and that part recommended instead.
     */
    private Candidate combine(Candidate winner, List<Candidate> parts, List<TuningResult.Step> steps) {
        if (parts.size() <= 1) {
            Candidate only = parts.isEmpty() ? winner : parts.get(0);
            steps.add(new TuningResult.Step(COMBINATION, winner.name(), only.name(), List.of()));
            return only;
        }
        List<String> flags = new ArrayList<>(winner.variant().flags());
        Map<String, String> values = new LinkedHashMap<>();
        for (Candidate part : parts) {
            // the part's own flags: those after the winner's, which onto() put first
            flags.addAll(part.variant().flags().subList(winner.variant().flags().size(), part.variant().flags().size()));
            values.putAll(part.paramValues());
        }
        Candidate combination = new Candidate(new VariantDescriptor(COMBINATION, COMBINATION, flags, winner.variant().engine(),
                false, winner.variant().workload()), values, point);
        List<Candidate> all = new ArrayList<>(List.of(winner, combination));
        all.addAll(parts);
        measurer.measure(all, 1);
        List<Pair> pairs = new ArrayList<>(List.of(new Pair(winner, combination)));
        for (Candidate part : parts) {
            pairs.add(new Pair(winner, part));
            pairs.add(new Pair(combination, part));
        }
        List<Outcome> compared = compare(pairs);
        Outcome whole = compared.get(0);
        Candidate recommended = whole.better() ? combination : null;
        double best = whole.better() ? whole.score() : Double.NaN;
        List<Outcome> alone = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Candidate part = parts.get(i);
            alone.add(compared.get(1 + 2 * i));
            Outcome partVsWhole = compared.get(2 + 2 * i);
            boolean beatsWhole = !whole.better() || partVsWhole.better();
            if (beatsWhole && partVsWhole.failure() == null && (Double.isNaN(best) || improves(partVsWhole.score(), best))) {
                recommended = part;
                best = partVsWhole.score();
            }
        }
        if (recommended == null) {
            recommended = winner;
        }
        if (recommended != combination) {
            String options = parts.stream().map(Candidate::name).collect(Collectors.joining(", "));
            caveats.add(whole.better() ? Caveat.of(params.ranksATime() ? Code.COMBINATION_SLOWER : Code.COMBINATION_WORSE,
                    options, recommended.name())
                    : Caveat.of(Code.COMBINATION_NOT_BETTER, options, winner.name(), recommended.name()));
        }
        List<TuningResult.Candidate> rows = new ArrayList<>(List.of(baseRow(winner)));
        rows.add(whole.row(recommended == combination ? Verdict.CHOSEN : demoted(whole)));
        for (Outcome o : alone) {
            rows.add(o.row(o.candidate() == recommended ? Verdict.CHOSEN : demoted(o)));
        }
        steps.add(new TuningResult.Step(COMBINATION, winner.name(), recommended.name(), rows));
        return recommended;
    }

    /** The verdict of a candidate that was not chosen: better than the base, but not the recommendation. */
    private static Verdict demoted(Outcome o) {
        return o.better() ? Verdict.BETTER_NOT_BEST : o.verdict();
    }

    /** Baseline and recommendation at each validation rate; the rows, and caveats for where the gain does not hold. */
    private List<TuningResult.Validation> validate(Candidate baseline, Candidate recommended) {
        List<TuningResult.Validation> rows = new ArrayList<>();
        if (recommended.equals(baseline)) {
            return rows;
        }
        List<Candidate> all = new ArrayList<>();
        for (Point p : validationPoints()) {
            all.add(baseline.at(p));
            all.add(recommended.at(p));
        }
        measurer.measure(all, 1);
        List<Point> points = validationPoints();
        List<Outcome> compared = compare(points.stream().map(p -> new Pair(baseline.at(p), recommended.at(p))).toList());
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            Outcome o = compared.get(i);
            if (o.failure() != null) {
                caveats.add(Caveat.of(atPoint(Code.VALIDATION_FAILED, p), format(p), o.failure()));
                continue;
            }
            rows.add(new TuningResult.Validation(p.rate(), p.concurrency(), o.baseScore(), o.score(), params.higherIsBetter()
                    ? o.score() / o.baseScore() : o.baseScore() / o.score(), o.significant()));
            if (!o.better()) {
                Code code = params.ranksATime() ? o.significant() ? Code.VALIDATION_SLOWER : Code.VALIDATION_NOT_FASTER
                        : o.significant() ? Code.VALIDATION_WORSE : Code.VALIDATION_NOT_BETTER;
                caveats.add(Caveat.of(atPoint(code, p), format(p)));
            }
        }
        if (rows.size() >= 2) {
            TuningResult.Validation low = rows.get(0);
            TuningResult.Validation high = rows.get(rows.size() - 1);
            boolean shrinking = true;
            for (int i = 1; i < rows.size(); i++) {
                shrinking &= rows.get(i).speedup() <= rows.get(i - 1).speedup();
            }
            if (shrinking && high.speedup() < low.speedup()) {
                caveats.add(Caveat.of(atPoint(Code.GAIN_SHRINKS, point), ratio(low.speedup()), format(pointOf(low)),
                        ratio(high.speedup()), format(pointOf(high))));
            }
        }
        return rows;
    }

    /** Where the recommendation is validated: the validation rates, or for a tuner at a concurrency its concurrencies. */
    private List<Point> validationPoints() {
        return point.hasRate() ? params.validationRates().stream().map(point::at).toList()
                : params.validationConcurrencies().stream().map(Point::atConcurrency).toList();
    }

    private static Point pointOf(TuningResult.Validation v) {
        return v.concurrency() > 0 ? Point.atConcurrency(v.concurrency()) : Point.atRate(v.rate());
    }

    /** A point as the caveats name it: the rate ({@code 8}) or the streams ({@code 64}); the code says which. */
    private static String format(Point p) {
        return p.hasRate() ? LoadOption.format(p.rate()) : Integer.toString(p.concurrency());
    }

    /** The validation caveat {@code code} (worded for a rate) as worded for {@code p}: at a concurrency, its twin. */
    private static Code atPoint(Code code, Point p) {
        if (p.hasRate()) {
            return code;
        }
        return switch (code) {
            case VALIDATION_FAILED -> Code.VALIDATION_FAILED_AT_CONCURRENCY;
            case VALIDATION_SLOWER -> Code.VALIDATION_SLOWER_AT_CONCURRENCY;
            case VALIDATION_NOT_FASTER -> Code.VALIDATION_NOT_FASTER_AT_CONCURRENCY;
            case VALIDATION_WORSE -> Code.VALIDATION_WORSE_AT_CONCURRENCY;
            case VALIDATION_NOT_BETTER -> Code.VALIDATION_NOT_BETTER_AT_CONCURRENCY;
            case GAIN_SHRINKS -> Code.GAIN_SHRINKS_AT_CONCURRENCY;
            default -> throw new IllegalArgumentException(code + " names no validation point");
        };
    }

    /** The step's base as its table shows it: its score and the repetitions it rests on. */
    private TuningResult.Candidate baseRow(Candidate base) {
        if (params.byCapacity()) {
            return new TuningResult.Candidate(base.name(), capacity(base).capacity(), Double.NaN, Double.NaN, Double.NaN, 1,
                    Verdict.BASE);
        }
        BlockResult block = measurer.measure(List.of(base), 1).get(0);
        return new TuningResult.Candidate(base.name(), mean(block), Double.NaN, Double.NaN, Double.NaN,
                block.repetitions().size(), Verdict.BASE);
    }

    /** Whether {@code score} is better than {@code than}: lower for a time or a cost, higher for a capacity or a goodput. */
    private boolean improves(double score, double than) {
        return params.higherIsBetter() ? score > than : score < than;
    }

    /**
     * Whether the block measured what the tuner ranks by: latencies, and the metric itself (a figure, or a distribution a
     * run may leave out, such as an ITL the server's events could not give per token).
     */
    private boolean comparable(BlockResult block) {
        return Comparison.comparable(block)
                && block.repetitions().stream().anyMatch(r -> r.number(params.metric(), params.stat()).isPresent());
    }

    /** The block's score: the mean over its repetitions of the metric's statistic (of the figure itself for a scalar). */
    private double mean(BlockResult block) {
        return block.repetitions().stream().mapToDouble(r -> r.number(params.metric(), params.stat()).orElse(Double.NaN))
                .filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /** A ratio as the caveats state it: {@code 1.03}. */
    private static String ratio(double ratio) {
        return String.format(Locale.ROOT, "%.2f", ratio);
    }
}
