package io.servebench.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the simulated engine's GPUs drew, step by step, on the engine's clock (real or virtual), read back as an
 * energy counter and mean power over sampling intervals, as NVML would show them: the twin's GPU telemetry.
 * Thread-safe: the scheduler's thread records, a load's thread reads.
 */
public final class PowerMeter {

    /**
     * One reading: at {@code nanos}, the mean power of all GPUs over the interval that ended then, the energy they used
     * since the readings began, and the share of the interval in which they ran a kernel.
     */
    public record Reading(long nanos, double watts, double joules, double utilization) {
    }

    private final String gpu;
    private final PowerModel model;
    private final int gpus;
    private long[] starts = new long[1024];
    private long[] ends = new long[1024];
    /** All GPUs' power above idle during each step, W. */
    private double[] extraWatts = new double[1024];
    private double[] busyNanos = new double[1024];
    private int steps;

    PowerMeter(GpuProfile gpu, int gpus) {
        this.gpu = gpu.name();
        this.model = PowerModel.of(gpu);
        this.gpus = gpus;
    }

    /** The simulated GPU's name. */
    public String gpu() {
        return gpu;
    }

    /** The model each GPU follows. */
    public PowerModel model() {
        return model;
    }

    /** GPUs the engine runs on (its tensor parallelism). */
    public int gpus() {
        return gpus;
    }

    /** Records a step from {@code start} to {@code end} that used its GPUs as {@code step} says. */
    synchronized void record(long start, long end, StepCostModel.Step step) {
        if (end <= start) {
            return;
        }
        if (steps == starts.length) {
            starts = Arrays.copyOf(starts, steps * 2);
            ends = Arrays.copyOf(ends, steps * 2);
            extraWatts = Arrays.copyOf(extraWatts, steps * 2);
            busyNanos = Arrays.copyOf(busyNanos, steps * 2);
        }
        double span = end - start;
        double compute = Math.min(1, step.computeNanos() / span);
        double memory = Math.min(1 - compute, step.memoryNanos() / span);
        starts[steps] = start;
        ends[steps] = end;
        extraWatts[steps] = gpus * (model.watts(compute, memory) - model.idleWatts());
        busyNanos[steps] = Math.min(span, step.computeNanos() + step.memoryNanos() + step.floorNanos());
        steps++;
    }

    /**
     * Readings every {@code interval} ns from {@code from} (the first, 0 J) to {@code to} (the last, its interval
     * shorter when the span is no multiple of it). Steps that ended before {@code from} are forgotten: a later call
     * reads a later span.
     */
    public synchronized List<Reading> readings(long from, long to, long interval) {
        if (to <= from || interval <= 0) {
            throw new IllegalArgumentException("expected from < to and interval > 0, got " + from + ", " + to + ", "
                    + interval);
        }
        forgetBefore(from);
        List<Reading> out = new ArrayList<>();
        out.add(new Reading(from, gpus * model.idleWatts(), 0, 0));
        double joules = 0;
        int first = 0;
        for (long a = from; a < to; a += interval) {
            long b = Math.min(to, a + interval);
            double extra = 0;
            double busy = 0;
            while (first < steps && ends[first] <= a) {
                first++;
            }
            for (int i = first; i < steps && starts[i] < b; i++) {
                double overlap = Math.min(b, ends[i]) - Math.max(a, starts[i]);
                if (overlap > 0) {
                    double share = overlap / (ends[i] - starts[i]);
                    extra += extraWatts[i] * overlap / 1e9;
                    busy += busyNanos[i] * share;
                }
            }
            double seconds = (b - a) / 1e9;
            double energy = gpus * model.idleWatts() * seconds + extra;
            joules += energy;
            out.add(new Reading(b, energy / seconds, joules, Math.min(100, 100 * busy / (b - a))));
        }
        return out;
    }

    private void forgetBefore(long from) {
        int keep = 0;
        while (keep < steps && ends[keep] <= from) {
            keep++;
        }
        if (keep == 0) {
            return;
        }
        int left = steps - keep;
        System.arraycopy(starts, keep, starts, 0, left);
        System.arraycopy(ends, keep, ends, 0, left);
        System.arraycopy(extraWatts, keep, extraWatts, 0, left);
        System.arraycopy(busyNanos, keep, busyNanos, 0, left);
        steps = left;
    }
}
