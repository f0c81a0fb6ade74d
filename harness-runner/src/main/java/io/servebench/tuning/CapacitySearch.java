package io.servebench.tuning;

import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.CapacityResult;
import io.servebench.workload.WorkloadSetting;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * Finds a configuration's capacity under its SLOs: the highest request rate, or number of closed-loop streams, at which
 * at least the target share of requests meets every SLO. It brackets (doubling or halving from the start load until one
 * probe meets the target and another misses it), then bisects the bracket geometrically until its ends are within the
 * precision, or are neighbouring numbers of streams, or the probe budget is spent. A probe meets the target when its
 * measured share does; the answer's interval comes from the probes' 95% Wilson intervals on the share, so a probe that
 * met or missed only by noise widens it.
 *
 * <p>A probe whose trial failed (every request failed, or the engine did not start or died) met nothing; above a rate
 * that met the target it is a miss like any other, but below every rate tried it ends the search: halving a rate at
 * which the server served nothing would measure the same failure ever more slowly (from 2 req/s, eight halvings of ten
 * requests each take 43 minutes).
 */
public final class CapacitySearch {

    /**
     * A measured rate: requests that met every SLO, of all measured; the goodput, NaN when unknown; and why its trial
     * failed, {@code null} when it ran.
     */
    public record Attained(long met, long total, double goodput, String failure) {

        /** A rate whose trial ran. */
        public Attained(long met, long total, double goodput) {
            this(met, total, goodput, null);
        }
    }

    /** The share of requests that must meet the SLOs when neither {@code --capacity=SHARE} nor @Slo(minAttainment) says. */
    public static final double DEFAULT_TARGET = 0.99;

    /** The bracket's relative width to stop at. */
    public static final double DEFAULT_PRECISION = 0.1;

    /** Most rates measured for one configuration. */
    public static final int DEFAULT_PROBES = 12;

    /** Most doublings or halvings while bracketing. */
    static final int MAX_BRACKET_STEPS = 8;

    private final double target;
    private final double precision;
    private final int maxProbes;

    /**
     * @param target    the share of requests that must meet the SLOs, in (0, 1]
     * @param precision the bracket's relative width to stop at ({@code 0.1}: the ends within 10%)
     * @param maxProbes most rates measured
     */
    public CapacitySearch(double target, double precision, int maxProbes) {
        if (!(target > 0 && target <= 1)) {
            throw new IllegalArgumentException("capacity target " + target + ": expected a share of requests in (0, 1], e.g. 0.99");
        }
        this.target = target;
        this.precision = precision;
        this.maxProbes = maxProbes;
    }

    /**
     * @param name  the configuration's name, for the result
     * @param slo   the SLOs, for the result
     * @param axis  what the search varies: the request rate, or the number of streams (whole, at least 1)
     * @param start the first load to probe, requests/s or streams
     * @param probe measures the configuration at a load
     */
    public CapacityResult search(String name, String slo, CapacityResult.Axis axis, double start,
                                 DoubleFunction<Attained> probe) {
        boolean streams = axis == CapacityResult.Axis.CONCURRENCY;
        List<CapacityResult.Probe> probes = new ArrayList<>();
        DoubleFunction<Boolean> meets = load -> {
            Attained a = probe.apply(load);
            double[] w = wilson(a.met(), a.total());
            probes.add(new CapacityResult.Probe(load, a.met(), a.total(), w[0], w[1], a.goodput(), a.failure()));
            return a.total() > 0 && (double) a.met() / a.total() >= target;
        };
        double lo = 0;
        double hi = Double.POSITIVE_INFINITY;
        double load = streams ? Math.max(1, Math.round(start)) : start;
        for (int step = 0; step <= MAX_BRACKET_STEPS && probes.size() < maxProbes; step++) {
            if (meets.apply(load)) {
                lo = load;
                if (hi < Double.POSITIVE_INFINITY) {
                    break;
                }
                load *= 2;
            } else {
                hi = load;
                // one stream is the least a closed loop sends
                if (lo > 0 || probes.get(probes.size() - 1).failure() != null || (streams && load <= 1)) {
                    break;
                }
                load = streams ? Math.max(1, Math.floor(load / 2)) : load / 2;
            }
        }
        while (lo > 0 && hi < Double.POSITIVE_INFINITY && hi / lo > 1 + precision && probes.size() < maxProbes) {
            double mid = streams ? Math.round(Math.sqrt(lo * hi)) : threeDigits(Math.sqrt(lo * hi));
            if (mid <= lo || mid >= hi) {
                // neighbouring numbers of streams: nothing lies between them
                break;
            }
            if (meets.apply(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        probes.sort(Comparator.comparingDouble(CapacityResult.Probe::load));
        double capacity = lo;
        double clearlyMet = probes.stream().filter(p -> p.low() >= target && p.load() <= capacity)
                .mapToDouble(CapacityResult.Probe::load).max().orElse(0);
        double clearlyMissed = probes.stream().filter(p -> p.high() < target && p.load() > capacity)
                .mapToDouble(CapacityResult.Probe::load).min().orElse(Double.POSITIVE_INFINITY);
        return new CapacityResult(name, slo, target, axis, probes, capacity, clearlyMet, clearlyMissed);
    }

    /** What a probe's block measured: requests that met the SLOs, of all measured (a failed trial: none of them). */
    public static Attained attained(BlockResult block) {
        long total = Math.round(block.repetitions().stream().mapToDouble(r -> r.value(Metric.SUCCESSFUL_REQUESTS).orElse(0)
                + r.value(Metric.FAILED_REQUESTS).orElse(0)).sum());
        if (!block.succeeded() || total == 0) {
            long planned = Long.parseLong(block.params().getOrDefault(WorkloadSetting.REQUESTS.key(), "1"));
            return new Attained(0, Math.max(total, planned), 0, block.failure() != null ? block.failure()
                    : "no request was measured");
        }
        // a load that measured requests but could not judge them (an ITL bound where the events gave no per-token ITL)
        // has no attainment: counting none as met would report a capacity below every rate tried
        if (block.repetitions().stream().anyMatch(r -> r.value(Metric.SLO_ATTAINMENT).isEmpty())) {
            return new Attained(0, total, Double.NaN, "its SLO attainment could not be measured (the block's notes say"
                    + " why)");
        }
        long met = Math.round(block.repetitions().stream().mapToDouble(r -> r.value(Metric.SLO_ATTAINMENT).orElse(0) / 100
                * (r.value(Metric.SUCCESSFUL_REQUESTS).orElse(0) + r.value(Metric.FAILED_REQUESTS).orElse(0))).sum());
        double goodput = block.repetitions().stream().mapToDouble(r -> r.value(Metric.GOODPUT).orElse(Double.NaN))
                .average().orElse(Double.NaN);
        return new Attained(met, total, goodput);
    }

    /** {@code rate} to three significant digits: a rate a person can type again, and a trial id that reads. */
    static double threeDigits(double rate) {
        return new BigDecimal(rate).round(new MathContext(3)).doubleValue();
    }

    /** The 95% Wilson score interval of a share {@code met / total}. */
    static double[] wilson(long met, long total) {
        if (total == 0) {
            return new double[] {0, 1};
        }
        double z = 1.959963984540054;
        double p = (double) met / total;
        double denominator = 1 + z * z / total;
        double centre = (p + z * z / (2.0 * total)) / denominator;
        double half = z * Math.sqrt(p * (1 - p) / total + z * z / (4.0 * total * total)) / denominator;
        return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
    }
}
