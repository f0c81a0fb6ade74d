package io.servebench.reports;

import io.servebench.results.Metric;
import io.servebench.results.Stat;
import io.servebench.results.TrialMetrics;
import io.servebench.results.TrialResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The conditions under which a result block's numbers should not be taken at face value, computed
 * in one place for every report. Each is checked per repetition and reported once, with the worst
 * repetition's figure.
 */
public final class Warnings {

    /** Share of token events that shared a network read with an earlier one above which ITL is coarse. */
    public static final double COALESCED_SHARE = 0.10;

    /** Relative shortfall of the achieved send rate below the requested rate that is flagged. */
    public static final double RATE_SHORTFALL = 0.01;

    /** Schedule lag P99 above which the load generator did not keep its schedule, ms. */
    public static final double SCHEDULE_LAG_P99_MS = 1.0;

    /** What a warning is about. */
    public enum Kind { COALESCED_EVENTS, RATE_SHORTFALL, SCHEDULE_LAG, ERRORS }

    /**
     * One warning.
     *
     * @param kind    what it is about
     * @param message one sentence for the reader, with the figures that triggered it
     */
    public record Warning(Kind kind, String message) {
    }

    private Warnings() {
    }

    /** The block's warnings, in {@link Kind} order; none for a block that did not run. */
    public static List<Warning> of(TrialResult trial) {
        List<Warning> out = new ArrayList<>();
        if (!trial.succeeded()) {
            return out;
        }
        List<TrialMetrics> reps = trial.repetitions();
        coalesced(reps).ifPresent(out::add);
        rateShortfall(trial, reps).ifPresent(out::add);
        scheduleLag(reps).ifPresent(out::add);
        errors(reps).ifPresent(out::add);
        return List.copyOf(out);
    }

    private static java.util.Optional<Warning> coalesced(List<TrialMetrics> reps) {
        double worst = 0;
        double perRead = 0;
        for (TrialMetrics r : reps) {
            if (r.tokenEvents() > 0) {
                worst = Math.max(worst, (double) r.coalescedEvents() / r.tokenEvents());
            }
            perRead = Math.max(perRead, r.value(Metric.EVENTS_PER_READ_MAX).orElse(0));
        }
        if (worst <= COALESCED_SHARE) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Warning(Kind.COALESCED_EVENTS, String.format(Locale.ROOT,
                "%.0f%% of token events arrived in the same network read as an earlier one%s, so per-event times are "
                        + "coarse: ITL spreads each read's gap over its tokens (not trustworthy token by token), and "
                        + "inter-chunk latency holds zero gaps.", 100 * worst,
                perRead > 0 ? String.format(Locale.ROOT, " (up to %.0f events per read)", perRead) : "")));
    }

    /**
     * Requested rate: the block's {@code rate} param for the constant profile (its schedule is exactly
     * that rate); for other profiles the rate their random or shaped schedule actually asked for.
     */
    private static java.util.Optional<Warning> rateShortfall(TrialResult trial, List<TrialMetrics> reps) {
        double worstShare = 0;
        double achievedAtWorst = 0;
        double requestedAtWorst = 0;
        for (TrialMetrics r : reps) {
            OptionalDouble achieved = r.value(Metric.ACHIEVED_SEND_RATE);
            OptionalDouble requested = requestedRate(trial, r);
            if (achieved.isEmpty() || requested.isEmpty()) {
                continue;
            }
            double shortfall = 1 - achieved.getAsDouble() / requested.getAsDouble();
            if (shortfall > worstShare) {
                worstShare = shortfall;
                achievedAtWorst = achieved.getAsDouble();
                requestedAtWorst = requested.getAsDouble();
            }
        }
        if (worstShare <= RATE_SHORTFALL) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Warning(Kind.RATE_SHORTFALL, String.format(Locale.ROOT,
                "requests went out at %s req/s, %.1f%% short of the requested %s req/s: the client could not keep up, "
                        + "so the engine saw a lighter load than the block says.", Numbers.format(achievedAtWorst),
                100 * worstShare, Numbers.format(requestedAtWorst))));
    }

    private static OptionalDouble requestedRate(TrialResult trial, TrialMetrics r) {
        String profile = trial.params().get("profile");
        String rate = trial.params().get("rate");
        if ("constant".equals(profile) && rate != null) {
            try {
                return OptionalDouble.of(Double.parseDouble(rate));
            } catch (NumberFormatException e) {
                return r.value(Metric.SCHEDULED_SEND_RATE);
            }
        }
        return "concurrent".equals(profile) ? OptionalDouble.empty() : r.value(Metric.SCHEDULED_SEND_RATE);
    }

    private static java.util.Optional<Warning> scheduleLag(List<TrialMetrics> reps) {
        double worst = reps.stream().map(r -> r.distribution(Metric.SCHEDULE_LAG)).flatMap(java.util.Optional::stream)
                .mapToDouble(d -> d.get(Stat.P99)).max().orElse(0);
        if (worst <= SCHEDULE_LAG_P99_MS) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Warning(Kind.SCHEDULE_LAG, String.format(Locale.ROOT,
                "P99 schedule lag was %s ms (over %.0f ms): requests left later than the arrival schedule said, so "
                        + "TTFT and latency omit client-side queueing; see the \"from schedule\" rows.",
                Numbers.format(worst), SCHEDULE_LAG_P99_MS)));
    }

    private static java.util.Optional<Warning> errors(List<TrialMetrics> reps) {
        double failed = 0;
        double total = 0;
        for (TrialMetrics r : reps) {
            failed += r.value(Metric.FAILED_REQUESTS).orElse(0);
            total += r.value(Metric.FAILED_REQUESTS).orElse(0) + r.value(Metric.SUCCESSFUL_REQUESTS).orElse(0);
        }
        if (failed == 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Warning(Kind.ERRORS, String.format(Locale.ROOT,
                "%s of %s requests failed (error rate %.2f%%); they are excluded from every latency and throughput.",
                Numbers.count(failed), Numbers.count(total), 100 * failed / total)));
    }
}
