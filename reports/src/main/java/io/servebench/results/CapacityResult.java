package io.servebench.results;

import io.servebench.workload.Datasets;
import io.servebench.workload.WorkloadSetting;

import java.util.List;
import java.util.Objects;

/**
 * The highest load at which one configuration meets its SLOs for a stated share of its requests, found by bracketing
 * and bisection over measured trials, with the loads it probed: a request rate, or for a closed-loop load the number of
 * streams ({@link Axis}).
 *
 * @param configuration the configuration's name ({@code Study.variant})
 * @param slo           the SLOs, as {@code --slo} reads them ({@code ttft=200,tpot=30})
 * @param target        the share of requests that must meet them, in (0, 1]
 * @param axis          what the search varied: the request rate, or the concurrency
 * @param probes        each load measured, in increasing load
 * @param capacity      the highest probed load that met the target below the lowest that did not, in the axis's
 *                      {@link Axis#unit()}; 0 when none met it
 * @param low           the highest load that met the target beyond doubt (95%): the capacity is at least this; 0 when
 *                      none did
 * @param high          the lowest load that missed it beyond doubt: the capacity is below this; infinite when none did
 */
public record CapacityResult(String configuration, String slo, double target, Axis axis, List<Probe> probes,
                             double capacity, double low, double high) {

    public CapacityResult {
        Objects.requireNonNull(configuration, "configuration");
        Objects.requireNonNull(axis, "axis");
        probes = List.copyOf(probes);
    }

    /** What a capacity search varies. */
    public enum Axis {
        /** Requests per second of an open-loop load. */
        RATE(WorkloadSetting.RATE),
        /**
         * Conversations per second of an open-loop multi-turn load: the rate paces each conversation's first turn, and
         * its later turns follow their answers.
         */
        CONVERSATION_RATE(WorkloadSetting.RATE),
        /** Streams of a closed-loop load, each sending its next request when its last ends. */
        CONCURRENCY(WorkloadSetting.CONCURRENCY);

        private final WorkloadSetting setting;

        Axis(WorkloadSetting setting) {
            this.setting = setting;
        }

        /** The open-loop axis of a load whose rate paces conversations, or requests. */
        public static Axis rate(boolean conversations) {
            return conversations ? CONVERSATION_RATE : RATE;
        }

        /** {@code rate} or {@code concurrency}: the workload setting's key, as the console names what was searched. */
        public String noun() {
            return setting.key();
        }

        /** Whether the load along it is a rate, which any positive number may be; else a whole number of streams. */
        public boolean isRate() {
            return setting == WorkloadSetting.RATE;
        }

        /** What a load along it counts: {@code req/s}, {@code conversations/s} or {@code streams}. */
        public String unit() {
            return switch (this) {
                case RATE -> Datasets.REQUEST_RATE_UNIT;
                case CONVERSATION_RATE -> Datasets.CONVERSATION_RATE_UNIT;
                case CONCURRENCY -> "streams";
            };
        }

        /** The axis's name in message keys ({@code capacity.unit.conversation_rate}). */
        public String messageKey() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The probe that ended the search by failing below every load tried: no load met the target, and none lower was
     * tried, the server having served nothing at this one.
     */
    public java.util.Optional<Probe> stoppedBy() {
        return capacity > 0 || probes.isEmpty() || probes.get(0).failure() == null ? java.util.Optional.empty()
                : java.util.Optional.of(probes.get(0));
    }

    /** One line for a console: the capacity, or that none was found and why. */
    public String describe() {
        if (unbounded()) {
            return String.format(java.util.Locale.ROOT, "%s at least %s: every %s tried met the target, so its"
                    + " capacity is above what the search reached (declare a higher %s to search from)", configuration,
                    load(capacity), axis.noun(), axis.noun());
        }
        if (capacity > 0) {
            return configuration + " " + load(capacity);
        }
        return stoppedBy().map(p -> String.format(java.util.Locale.ROOT, "%s none found: the trial at %s failed,"
                + " so no lower %s was tried", configuration, load(p.load()), axis.noun())).orElseGet(() -> probes.isEmpty()
                ? configuration + " none found: no " + axis.noun() + " was tried"
                : String.format(java.util.Locale.ROOT, "%s none found: no %s tried, down to %s, met the target;"
                        + " there %d of %d requests met %s, where %s%% had to%s", configuration, axis.noun(),
                        load(probes.get(0).load()), probes.get(0).met(), probes.get(0).total(), slo, percent(target),
                        probes.get(0).met() == 0 ? ": a bound the server misses even with almost no load" : ""));
    }

    /**
     * Whether the capacity is only a lower bound: every load tried met the target, so the search (which doubles a
     * bounded number of times) never found where the server stops meeting it.
     */
    public boolean unbounded() {
        return capacity > 0 && probes.stream().noneMatch(p -> p.load() > capacity);
    }

    /** A load as the console writes it, with its unit: a rate to three significant digits, a number of streams whole. */
    private String load(double load) {
        if (!axis.isRate()) {
            long streams = Math.round(load);
            return streams + (streams == 1 ? " stream" : " streams");
        }
        return String.format(java.util.Locale.ROOT, "%.3g %s", load, axis.unit());
    }

    private static String percent(double share) {
        return new java.math.BigDecimal(Double.toString(100 * share)).stripTrailingZeros().toPlainString();
    }

    /**
     * One measured load.
     *
     * @param load    the rate sent (requests or conversations per second), or streams
     * @param met     requests that succeeded and met every SLO
     * @param total   requests measured, failed ones included
     * @param low     the share's 95% Wilson interval, low end
     * @param high    high end
     * @param goodput requests meeting the SLOs per second, NaN when not measured
     * @param failure why its trial failed (every request failed, the engine did not start or died), {@code null} when
     *                it ran: it met nothing
     */
    public record Probe(double load, long met, long total, double low, double high, double goodput, String failure) {

        /** The share of requests that met the SLOs. */
        public double share() {
            return total == 0 ? 0 : (double) met / total;
        }
    }
}
