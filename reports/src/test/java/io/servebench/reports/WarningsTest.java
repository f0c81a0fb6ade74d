package io.servebench.reports;

import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.Distribution;
import io.servebench.results.Fixtures;
import io.servebench.results.PrefixCacheReset;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class WarningsTest {

    /** A repetition with the given figures; everything else as the reference-like fixture. */
    private static RepetitionResult rep(long events, long coalesced, double perRead, double achieved, double lagP99Ms,
                                    double failed) {
        RepetitionResult base = Fixtures.repetition(2.62, 1.8);
        Map<String, Double> scalars = new LinkedHashMap<>(base.scalars());
        scalars.put(Metric.FAILED_REQUESTS.id(), failed);
        scalars.put(Metric.ACHIEVED_SEND_RATE.id(), achieved);
        scalars.put(Metric.SCHEDULED_SEND_RATE.id(), 8.0);
        scalars.put(Metric.EVENTS_PER_READ_MAX.id(), perRead);
        Map<String, Distribution> d = new LinkedHashMap<>(base.distributions());
        d.put(Metric.SCHEDULE_LAG.id(), new Distribution("ms", 1000, lagP99Ms / 2, 0.1, 0, lagP99Ms / 2, lagP99Ms,
                lagP99Ms, lagP99Ms, lagP99Ms, lagP99Ms, List.of()));
        return new RepetitionResult(scalars, d, events, coalesced, Map.of(), Map.of());
    }

    private static BlockResult trial(String profile, RepetitionResult... reps) {
        BlockResult t = Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "8", List.of(reps));
        Map<String, String> params = new LinkedHashMap<>(t.params());
        params.put("profile", profile);
        return new BlockResult(t.benchmark(), t.className(), t.variant(), t.group(), true, params, t.trialId(),
                t.serverId(), t.repetitions(), null);
    }

    private static List<Warnings.Kind> kinds(BlockResult t) {
        return Warnings.of(t).stream().map(Warnings.Warning::kind).toList();
    }

    @Test
    void aSimulatedEngineThatWroteLateIsFlaggedFromItsOwnMetric() {
        RepetitionResult base = rep(1000, 100, 2, 7.95, 0.9, 0);
        java.util.function.DoubleFunction<RepetitionResult> late = share -> new RepetitionResult(base.scalars(),
                base.distributions(), base.tokenEvents(), base.coalescedEvents(), Map.of(), Map.of(),
                Map.of(io.servebench.results.ServerMetric.DELIVERY_LATE_SHARE.id(), share,
                        io.servebench.results.ServerMetric.DELIVERY_LATENESS_P99.id(), 4.2), List.of());
        assertThat(kinds(trial("constant", late.apply(0.01)))).isEmpty();
        List<Warnings.Warning> w = Warnings.of(trial("constant", late.apply(0.034)));
        assertThat(w).extracting(Warnings.Warning::kind).containsExactly(Warnings.Kind.LATE_DELIVERY);
        assertThat(w.get(0).message()).startsWith("The simulated engine wrote 3.4% of token events more than 1 ms after")
                .contains("(P99 lateness 4.20 ms)");
    }

    @Test
    void aRepetitionWhoseCacheWasNotEmptiedIsFlaggedAndTheTableCountsTheEmptiedOnes() {
        RepetitionResult base = rep(1000, 10, 1, 8, 0.5, 0);
        RepetitionResult emptied = base.withCacheReset(PrefixCacheReset.emptied("POST /flush_cache"));
        RepetitionResult failed = base.withCacheReset(PrefixCacheReset.failed("POST /flush_cache answered 400, 3 attempts"));
        RepetitionResult none = base.withCacheReset(PrefixCacheReset.notOffered("engine kind command offers no reset"));

        BlockResult clean = trial("constant", emptied, emptied);
        assertThat(kinds(clean)).isEmpty();
        ReportContent content = new ReportContent(Fixtures.run(List.of(clean)), ReportLanguage.EN);
        assertThat(content.rows(clean)).contains(new ReportContent.Row("Prefix cache emptied before each repetition",
                "yes (2 of 2)"));

        BlockResult partly = trial("constant", emptied, failed);
        List<Warnings.Warning> w = Warnings.of(partly);
        assertThat(w).extracting(Warnings.Warning::kind).containsExactly(Warnings.Kind.CACHE_NOT_EMPTIED);
        assertThat(w.get(0).message()).startsWith("the prefix cache was not emptied before the load "
                + "(repetition 2: POST /flush_cache answered 400, 3 attempts)");
        assertThat(new ReportContent(Fixtures.run(List.of(partly)), ReportLanguage.EN).rows(partly))
                .contains(new ReportContent.Row("Prefix cache emptied before each repetition", "1 of 2"));

        // an engine without a reset is said in the table, not warned about in every block
        BlockResult offersNone = trial("constant", none);
        assertThat(kinds(offersNone)).isEmpty();
        assertThat(new ReportContent(Fixtures.run(List.of(offersNone)), ReportLanguage.EN).rows(offersNone))
                .contains(new ReportContent.Row("Prefix cache emptied before each repetition",
                        "no: engine kind command offers no reset"));
    }

    @Test
    void aCleanBlockHasNoWarning() {
        assertThat(Warnings.of(trial("constant", rep(1000, 100, 2, 7.95, 0.9, 0)))).isEmpty();
    }

    @Test
    void eachConditionIsFlaggedWithItsFigures() {
        List<Warnings.Warning> w = Warnings.of(trial("constant", rep(1000, 101, 6, 7.9, 1.5, 3)));
        assertThat(w).extracting(Warnings.Warning::kind).containsExactly(Warnings.Kind.COALESCED_EVENTS,
                Warnings.Kind.RATE_SHORTFALL, Warnings.Kind.SCHEDULE_LAG, Warnings.Kind.ERRORS);
        assertThat(w.get(0).message()).startsWith("10% of token events arrived in the same network read")
                .contains("(up to 6 events per read)").contains("not trustworthy");
        assertThat(w.get(1).message()).startsWith("requests went out at 7.90 req/s, 1.2% short of the requested 8.00 req/s");
        assertThat(w.get(2).message()).startsWith("P99 schedule lag was 1.50 ms (over 1 ms)");
        assertThat(w.get(3).message()).startsWith("3 of 1003 requests failed (error rate 0.30%)");
    }

    @Test
    void theWorstRepetitionDecides() {
        assertThat(kinds(trial("constant", rep(1000, 0, 1, 8, 0.1, 0), rep(1000, 0, 1, 7.5, 0.1, 0))))
                .containsExactly(Warnings.Kind.RATE_SHORTFALL);
    }

    @Test
    void otherProfilesCompareWithTheirScheduledRateAndClosedLoopHasNone() {
        // poisson: the schedule asked for 8.0 (scheduled_send_rate), 7.95 is within 1%
        assertThat(kinds(trial("poisson", rep(1000, 0, 1, 7.95, 0.1, 0)))).isEmpty();
        assertThat(kinds(trial("poisson", rep(1000, 0, 1, 7.0, 0.1, 0)))).containsExactly(Warnings.Kind.RATE_SHORTFALL);
        assertThat(kinds(trial("concurrent", rep(1000, 0, 1, 1.0, 0.1, 0)))).isEmpty();
    }

    /**
     * A multi-turn block's rate is 2 conversations a second, whose three turns go out at 6 requests a second: requests
     * that fell behind their schedule are flagged against the schedule's rate of requests, not hidden by the far lower
     * rate of conversations (as they were before stop 77).
     */
    @Test
    void aMultiTurnBlockIsHeldToItsScheduledRateOfRequests() {
        java.util.function.Function<RepetitionResult, BlockResult> multiTurn = rep -> {
            BlockResult t = Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "2", List.of(rep));
            Map<String, String> params = new LinkedHashMap<>(t.params());
            params.put("dataset", "multi-turn:turns=3,in=fixed(64),out=fixed(16)");
            return new BlockResult(t.benchmark(), t.className(), t.variant(), t.group(), true, params, t.trialId(),
                    t.serverId(), t.repetitions(), null);
        };
        assertThat(kinds(multiTurn.apply(rep(1000, 0, 1, 7.95, 0.1, 0)))).isEmpty();
        List<Warnings.Warning> w = Warnings.of(multiTurn.apply(rep(1000, 0, 1, 6.0, 0.1, 0)));
        assertThat(w).extracting(Warnings.Warning::kind).containsExactly(Warnings.Kind.RATE_SHORTFALL);
        assertThat(w.get(0).message()).startsWith("requests went out at 6.00 req/s, 25.0% short of the requested 8.00 req/s");
    }

    @Test
    void aFailedTrialHasNoWarnings() {
        BlockResult failed = new BlockResult("a.B.c", "a.B", "c", "", false, Map.of(), "c@1", "s", List.of(), "engine did not start");
        assertThat(Warnings.of(failed)).isEmpty();
    }

    @Test
    void warningsAreWordedInTheReportsLanguageWithTheSameFigures() {
        List<Warnings.Warning> w = Warnings.of(trial("constant", rep(1000, 101, 6, 7.9, 1.5, 3)), ReportLanguage.ZH_CN.messages());
        assertThat(w).extracting(Warnings.Warning::kind).containsExactly(Warnings.Kind.COALESCED_EVENTS,
                Warnings.Kind.RATE_SHORTFALL, Warnings.Kind.SCHEDULE_LAG, Warnings.Kind.ERRORS);
        assertThat(w.get(1).message()).contains("7.90 req/s").contains("要求的 8.00 req/s 低 1.2%");
        assertThat(w.get(2).message()).startsWith("调度滞后 P99 为 1.50 ms");
        assertThat(w.get(3).message()).contains("3 / 1003 个请求失败");
    }
}
