package io.servebench.results;

import java.util.List;
import java.util.Objects;

/**
 * The highest request rate at which one configuration meets its SLOs for a stated share of its requests, found by
 * bracketing and bisection over measured trials, with the rates it probed.
 *
 * @param configuration the configuration's name ({@code Study.variant})
 * @param slo           the SLOs, as {@code --slo} reads them ({@code ttft=200,tpot=30})
 * @param target        the share of requests that must meet them, in (0, 1]
 * @param probes        each rate measured, in increasing rate
 * @param capacity      the highest probed rate that met the target below the lowest that did not, requests/s; 0 when
 *                      none met it
 * @param low           the highest rate that met the target beyond doubt (95%): the capacity is at least this; 0 when
 *                      none did
 * @param high          the lowest rate that missed it beyond doubt: the capacity is below this; infinite when none did
 */
public record CapacityResult(String configuration, String slo, double target, List<Probe> probes, double capacity,
                             double low, double high) {

    public CapacityResult {
        Objects.requireNonNull(configuration, "configuration");
        probes = List.copyOf(probes);
    }

    /**
     * The probe that ended the search by failing below every rate tried: no rate met the target, and none lower was
     * tried, the server having served nothing at this one.
     */
    public java.util.Optional<Probe> stoppedBy() {
        return capacity > 0 || probes.isEmpty() || probes.get(0).failure() == null ? java.util.Optional.empty()
                : java.util.Optional.of(probes.get(0));
    }

    /** One line for a console: the capacity, or that none was found and why. */
    public String describe() {
        if (unbounded()) {
            return String.format(java.util.Locale.ROOT, "%s at least %.3g req/s: every rate tried met the target, so its"
                    + " capacity is above what the search reached (declare a higher rate to search from)", configuration,
                    capacity);
        }
        if (capacity > 0) {
            return String.format(java.util.Locale.ROOT, "%s %.3g req/s", configuration, capacity);
        }
        return stoppedBy().map(p -> String.format(java.util.Locale.ROOT, "%s none found: the trial at %.3g req/s failed,"
                + " so no lower rate was tried", configuration, p.rate())).orElseGet(() -> probes.isEmpty()
                ? configuration + " none found: no rate was tried"
                : String.format(java.util.Locale.ROOT, "%s none found: no rate tried, down to %.3g req/s, met the target;"
                        + " there %d of %d requests met %s, where %s%% had to%s", configuration, probes.get(0).rate(),
                        probes.get(0).met(), probes.get(0).total(), slo, percent(target),
                        probes.get(0).met() == 0 ? ": a bound the server misses even with almost no load" : ""));
    }

    /**
     * Whether the capacity is only a lower bound: every rate tried met the target, so the search (which doubles a bounded
     * number of times) never found where the server stops meeting it.
     */
    public boolean unbounded() {
        return capacity > 0 && probes.stream().noneMatch(p -> p.rate() > capacity);
    }

    private static String percent(double share) {
        return new java.math.BigDecimal(Double.toString(100 * share)).stripTrailingZeros().toPlainString();
    }

    /**
     * One measured rate.
     *
     * @param rate    requests/s sent
     * @param met     requests that succeeded and met every SLO
     * @param total   requests measured, failed ones included
     * @param low     the share's 95% Wilson interval, low end
     * @param high    high end
     * @param goodput requests meeting the SLOs per second, NaN when not measured
     * @param failure why its trial failed (every request failed, the engine did not start or died), {@code null} when
     *                it ran: it met nothing
     */
    public record Probe(double rate, long met, long total, double low, double high, double goodput, String failure) {

        /** The share of requests that met the SLOs. */
        public double share() {
            return total == 0 ? 0 : (double) met / total;
        }
    }
}
