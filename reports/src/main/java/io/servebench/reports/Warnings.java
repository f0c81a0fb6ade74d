package io.servebench.reports;

import io.servebench.annotations.Profile;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.PrefixCacheReset;
import io.servebench.results.RepetitionResult;
import io.servebench.results.ServerMetric;
import io.servebench.workload.WorkloadSetting;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The conditions under which a result block's numbers should not be taken at face value, computed
 * in one place for every report. Each is checked per repetition and reported once, with the worst
 * repetition's figure.
 */
final class Warnings {

    /** Share of token events that shared a network read with an earlier one above which ITL is coarse. */
    public static final double COALESCED_SHARE = 0.10;

    /** Relative shortfall of the achieved send rate below the requested rate that is flagged. */
    public static final double RATE_SHORTFALL = 0.01;

    /** Schedule lag P99 above which the load generator did not keep its schedule, ms. */
    public static final double SCHEDULE_LAG_P99_MS = 1.0;

    /** Share of a simulated engine's token events written over {@link ServerMetric#LATE_MS} late that is flagged. */
    public static final double LATE_DELIVERY_SHARE = 0.01;

    /** What a warning is about. */
    public enum Kind { CACHE_NOT_EMPTIED, COALESCED_EVENTS, RATE_SHORTFALL, SCHEDULE_LAG, LATE_DELIVERY, ERRORS }

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

    /** The block's warnings in English, in {@link Kind} order; none for a block that did not run. */
    public static List<Warning> of(BlockResult trial) {
        return of(trial, ReportLanguage.EN.messages());
    }

    /** The block's warnings worded by {@code words}, in {@link Kind} order; none for a block that did not run. */
    public static List<Warning> of(BlockResult trial, Messages words) {
        List<Warning> out = new ArrayList<>();
        if (!trial.succeeded()) {
            return out;
        }
        List<RepetitionResult> reps = trial.repetitions();
        cacheNotEmptied(reps, words).ifPresent(out::add);
        coalesced(reps, words).ifPresent(out::add);
        rateShortfall(trial, reps, words).ifPresent(out::add);
        scheduleLag(reps, words).ifPresent(out::add);
        lateDelivery(reps, words).ifPresent(out::add);
        errors(reps, words).ifPresent(out::add);
        return List.copyOf(out);
    }

    /** A reset the engine offers but did not confirm: that repetition may have found earlier prompts cached. */
    private static java.util.Optional<Warning> cacheNotEmptied(List<RepetitionResult> reps, Messages words) {
        List<String> failed = new ArrayList<>();
        for (int r = 0; r < reps.size(); r++) {
            PrefixCacheReset reset = reps.get(r).cacheReset();
            if (reset != null && reset.outcome() == PrefixCacheReset.Outcome.FAILED) {
                failed.add(reps.size() > 1 ? words.text("note.repetition", r + 1, reset.detail()) : reset.detail());
            }
        }
        if (failed.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Warning(Kind.CACHE_NOT_EMPTIED,
                words.text("warning.cacheNotEmptied", String.join("; ", failed))));
    }

    private static java.util.Optional<Warning> coalesced(List<RepetitionResult> reps, Messages words) {
        double worst = 0;
        double perRead = 0;
        for (RepetitionResult r : reps) {
            if (r.tokenEvents() > 0) {
                worst = Math.max(worst, (double) r.coalescedEvents() / r.tokenEvents());
            }
            perRead = Math.max(perRead, r.value(Metric.EVENTS_PER_READ_MAX).orElse(0));
        }
        if (worst <= COALESCED_SHARE) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Warning(Kind.COALESCED_EVENTS, words.text("warning.coalesced", 100 * worst,
                perRead > 0 ? words.text("warning.coalesced.perRead", perRead) : "")));
    }

    /**
     * Requested rate: the block's {@code rate} param for the constant profile (its schedule is exactly
     * that rate); for other profiles the rate their random or shaped schedule actually asked for. A multi-turn block's
     * rate param counts conversations, and its requests go out at several times it (each later turn when the one before
     * it ended), so its schedule's own rate of requests is what they are held to.
     */
    private static java.util.Optional<Warning> rateShortfall(BlockResult trial, List<RepetitionResult> reps, Messages words) {
        double worstShare = 0;
        double achievedAtWorst = 0;
        double requestedAtWorst = 0;
        for (RepetitionResult r : reps) {
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
        return java.util.Optional.of(new Warning(Kind.RATE_SHORTFALL, words.text("warning.rateShortfall",
                Numbers.format(achievedAtWorst), 100 * worstShare, Numbers.format(requestedAtWorst))));
    }

    private static OptionalDouble requestedRate(BlockResult trial, RepetitionResult r) {
        String profile = trial.params().get(WorkloadSetting.PROFILE.key());
        String rate = trial.params().get(WorkloadSetting.RATE.key());
        if (Profile.CONSTANT.equals(profile) && rate != null && !trial.pacesConversations()) {
            try {
                return OptionalDouble.of(Double.parseDouble(rate));
            } catch (NumberFormatException e) {
                return r.value(Metric.SCHEDULED_SEND_RATE);
            }
        }
        return "concurrent".equals(profile) ? OptionalDouble.empty() : r.value(Metric.SCHEDULED_SEND_RATE);
    }

    private static java.util.Optional<Warning> scheduleLag(List<RepetitionResult> reps, Messages words) {
        double worst = reps.stream().map(r -> r.distribution(Metric.SCHEDULE_LAG)).flatMap(java.util.Optional::stream)
                .mapToDouble(d -> d.get(Stat.P99)).max().orElse(0);
        if (worst <= SCHEDULE_LAG_P99_MS) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Warning(Kind.SCHEDULE_LAG, words.text("warning.scheduleLag",
                Numbers.format(worst), SCHEDULE_LAG_P99_MS)));
    }

    private static java.util.Optional<Warning> lateDelivery(List<RepetitionResult> reps, Messages words) {
        double share = 0;
        double p99 = 0;
        for (RepetitionResult r : reps) {
            share = Math.max(share, r.serverMetrics().getOrDefault(ServerMetric.DELIVERY_LATE_SHARE.id(), 0.0));
            p99 = Math.max(p99, r.serverMetrics().getOrDefault(ServerMetric.DELIVERY_LATENESS_P99.id(), 0.0));
        }
        if (share <= LATE_DELIVERY_SHARE) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Warning(Kind.LATE_DELIVERY, words.text("warning.lateDelivery", 100 * share,
                ServerMetric.LATE_MS, Numbers.format(p99))));
    }

    private static java.util.Optional<Warning> errors(List<RepetitionResult> reps, Messages words) {
        double failed = 0;
        double total = 0;
        for (RepetitionResult r : reps) {
            failed += r.value(Metric.FAILED_REQUESTS).orElse(0);
            total += r.value(Metric.FAILED_REQUESTS).orElse(0) + r.value(Metric.SUCCESSFUL_REQUESTS).orElse(0);
        }
        if (failed == 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Warning(Kind.ERRORS, words.text("warning.errors",
                Numbers.count(failed), Numbers.count(total), 100 * failed / total)));
    }
}
