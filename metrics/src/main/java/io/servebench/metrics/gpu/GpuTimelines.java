package io.servebench.metrics.gpu;

import io.servebench.results.GpuTimeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** A measurement window's GPU samples and request sends as a {@link GpuTimeline}. */
public final class GpuTimelines {

    /** The most steps a timeline has: enough to see a trial's phases, few enough to draw and to keep in the results. */
    static final int MAX_STEPS = 200;

    private GpuTimelines() {
    }

    /**
     * The window {@code [fromNanos, toNanos]} in steps of the sampling interval, or longer ones when the window holds
     * more than {@link #MAX_STEPS}, rounded up to 1, 2 or 5 × 10^k ms so that a steady rate counts the same in every
     * step. Each GPU's value in a step is the mean of its samples there, held from the step
     * before when it has none (a late sample); a step before any GPU's first sample is {@code null}.
     *
     * @param sends the intended send times of the measured requests, ns, any order
     */
    public static GpuTimeline of(List<GpuSample> samples, long fromNanos, long toNanos, long[] sends, Duration interval) {
        long span = toNanos - fromNanos;
        long step = nice(Math.max(interval.toNanos(), (span + MAX_STEPS - 1) / MAX_STEPS));
        int steps = (int) Math.max(1, (span + step - 1) / step);
        Map<Integer, List<GpuSample>> byGpu = new TreeMap<>(samples.stream()
                .filter(s -> s.nanos() >= fromNanos && s.nanos() < fromNanos + steps * step)
                .collect(Collectors.groupingBy(GpuSample::gpu)));
        double[][] watts = new double[byGpu.size()][];
        double[][] utilization = new double[byGpu.size()][];
        int g = 0;
        for (List<GpuSample> gpu : byGpu.values()) {
            watts[g] = held(gpu, fromNanos, step, steps, GpuSample::watts);
            utilization[g] = held(gpu, fromNanos, step, steps, GpuSample::gpuUtilization);
            g++;
        }
        List<Double> power = new ArrayList<>();
        List<Double> util = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            power.add(combine(watts, i, false));
            util.add(combine(utilization, i, true));
        }
        double[] sent = new double[steps];
        for (long t : sends) {
            if (t >= fromNanos && t < fromNanos + steps * step) {
                sent[(int) ((t - fromNanos) / step)]++;
            }
        }
        double seconds = step / 1e9;
        List<Double> rate = new ArrayList<>();
        for (double n : sent) {
            rate.add(n / seconds);
        }
        return new GpuTimeline(seconds, power, util, rate);
    }

    /** The smallest 1, 2 or 5 × 10^k ms at least {@code nanos}. */
    static long nice(long nanos) {
        long ms = 1_000_000;
        while (true) {
            for (long m : new long[] {1, 2, 5}) {
                if (m * ms >= nanos) {
                    return m * ms;
                }
            }
            ms *= 10;
        }
    }

    /** One GPU's field per step: the mean of its readings there, else the step before's; NaN before its first. */
    private static double[] held(List<GpuSample> gpu, long from, long step, int steps,
                                 java.util.function.ToDoubleFunction<GpuSample> field) {
        double[] sum = new double[steps];
        int[] count = new int[steps];
        for (GpuSample s : gpu) {
            double v = field.applyAsDouble(s);
            if (!Double.isNaN(v)) {
                int i = (int) ((s.nanos() - from) / step);
                sum[i] += v;
                count[i]++;
            }
        }
        double[] out = new double[steps];
        double last = Double.NaN;
        for (int i = 0; i < steps; i++) {
            last = count[i] > 0 ? sum[i] / count[i] : last;
            out[i] = last;
        }
        return out;
    }

    /** All GPUs' power (summed) or utilisation (averaged) in step {@code i}; null when a GPU has no value yet. */
    private static Double combine(double[][] byGpu, int i, boolean mean) {
        if (byGpu.length == 0) {
            return null;
        }
        double total = 0;
        for (double[] gpu : byGpu) {
            if (Double.isNaN(gpu[i])) {
                return null;
            }
            total += gpu[i];
        }
        return mean ? total / byGpu.length : total;
    }
}
