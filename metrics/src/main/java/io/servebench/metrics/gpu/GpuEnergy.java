package io.servebench.metrics.gpu;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the GPUs did over one measurement window, from their samples. Energy comes from the driver's counter where the
 * source reads it (the driver integrates power itself, at its own rate, so sparse samples lose nothing), else from the
 * power samples integrated by the trapezoid rule; a counter that runs backwards (a driver reload, a wrap) is bridged by
 * the power samples around the jump. Each GPU counts up to its last sample in the window, so one that stops answering
 * adds what it drew until then, and is named.
 *
 * @param gpus              GPUs with at least one sample in the window
 * @param seconds           the window's length, s
 * @param joules            energy of all the GPUs over the window, J
 * @param fromCounter       whether every GPU's energy came from its driver's counter
 * @param meanWatts         {@code joules / seconds}: all GPUs together, W
 * @param peakWatts         the highest power sample of any one GPU, W
 * @param meanUtilization   GPU utilisation averaged over the samples of every GPU, % ({@code NaN} when not reported)
 * @param peakMemoryBytes   the most device memory in use on any one GPU, bytes ({@code NaN} when not reported)
 * @param throttledSeconds  time during which at least one GPU reported a reason that {@link ClockEventReason#throttles()};
 *                          {@code NaN} when no sample carried clock-event reasons
 * @param throttleReasons   those reasons
 * @param samples           samples in the window, all GPUs
 * @param lost              GPUs whose samples stopped before the window's end, with the time (s into the window) of their last
 */
public record GpuEnergy(int gpus, double seconds, double joules, boolean fromCounter, double meanWatts, double peakWatts,
                        double meanUtilization, double peakMemoryBytes, double throttledSeconds,
                        Set<ClockEventReason> throttleReasons, int samples, Map<Integer, Double> lost) {

    /**
     * The window {@code [fromNanos, toNanos]} of {@code samples} (any order, any GPUs); empty when no GPU has a sample
     * in it.
     */
    public static java.util.Optional<GpuEnergy> of(List<GpuSample> samples, long fromNanos, long toNanos) {
        if (toNanos <= fromNanos) {
            throw new IllegalArgumentException("a window ends after it starts, got " + fromNanos + " to " + toNanos);
        }
        Map<Integer, List<GpuSample>> byGpu = new TreeMap<>(samples.stream()
                .sorted(Comparator.comparingLong(GpuSample::nanos))
                .collect(Collectors.groupingBy(GpuSample::gpu)));
        double seconds = (toNanos - fromNanos) / 1e9;
        double joules = 0;
        boolean counter = true;
        double peak = Double.NaN;
        double utilization = 0;
        int utilizationSamples = 0;
        double memory = Double.NaN;
        int inWindow = 0;
        int gpus = 0;
        Map<Integer, Double> lost = new TreeMap<>();
        List<long[]> throttled = new ArrayList<>();
        boolean reasonsKnown = false;
        Set<ClockEventReason> reasons = EnumSet.noneOf(ClockEventReason.class);
        // a GPU whose last sample is more than this before the window's end stopped answering
        for (Map.Entry<Integer, List<GpuSample>> e : byGpu.entrySet()) {
            List<GpuSample> all = e.getValue();
            List<GpuSample> window = all.stream().filter(s -> s.nanos() >= fromNanos && s.nanos() <= toNanos).toList();
            if (window.isEmpty()) {
                continue;
            }
            gpus++;
            inWindow += window.size();
            joules += energy(all, fromNanos, toNanos);
            counter &= window.stream().allMatch(GpuSample::hasEnergyCounter);
            for (int i = 0; i < window.size(); i++) {
                GpuSample s = window.get(i);
                peak = Double.isNaN(peak) ? s.watts() : Math.max(peak, s.watts());
                if (!Double.isNaN(s.gpuUtilization())) {
                    utilization += s.gpuUtilization();
                    utilizationSamples++;
                }
                memory = Double.isNaN(memory) ? s.memoryUsedBytes() : Math.max(memory, s.memoryUsedBytes());
                reasonsKnown |= s.clockEventReasons() != GpuSample.UNKNOWN_REASONS;
                if (ClockEventReason.throttled(s.clockEventReasons())) {
                    long end = i + 1 < window.size() ? window.get(i + 1).nanos() : Math.min(toNanos, s.nanos()
                            + typicalGap(window));
                    throttled.add(new long[] {s.nanos(), end});
                    ClockEventReason.in(s.clockEventReasons()).stream().filter(ClockEventReason::throttles)
                            .forEach(reasons::add);
                }
            }
            GpuSample last = all.get(all.size() - 1);
            if (toNanos - last.nanos() > 3 * typicalGap(all) && all.size() > 1) {
                lost.put(e.getKey(), (last.nanos() - fromNanos) / 1e9);
            }
        }
        if (gpus == 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new GpuEnergy(gpus, seconds, joules, counter, joules / seconds, peak,
                utilizationSamples == 0 ? Double.NaN : utilization / utilizationSamples, memory,
                reasonsKnown ? union(throttled) / 1e9 : Double.NaN,
                reasons, inWindow, lost));
    }

    /**
     * One GPU's energy over the window, its samples in time order: by the counter between consecutive samples where both
     * carry it and it did not run backwards, else by the mean of their power; clipped to the window, the power taken as
     * constant from the window's start to the first sample and from the last sample to the end (or to where the GPU
     * stopped answering).
     */
    static double energy(List<GpuSample> samples, long fromNanos, long toNanos) {
        double joules = 0;
        for (int i = 0; i + 1 < samples.size(); i++) {
            GpuSample a = samples.get(i);
            GpuSample b = samples.get(i + 1);
            long start = Math.max(a.nanos(), fromNanos);
            long end = Math.min(b.nanos(), toNanos);
            if (end <= start) {
                continue;
            }
            double span = (b.nanos() - a.nanos()) / 1e9;
            double share = (end - start) / 1e9 / span;
            boolean counted = a.hasEnergyCounter() && b.hasEnergyCounter() && b.energyJoules() >= a.energyJoules();
            joules += share * (counted ? b.energyJoules() - a.energyJoules() : (a.watts() + b.watts()) / 2 * span);
        }
        GpuSample first = samples.get(0);
        if (first.nanos() > fromNanos && first.nanos() <= toNanos) {
            joules += first.watts() * (first.nanos() - fromNanos) / 1e9;
        }
        GpuSample last = samples.get(samples.size() - 1);
        if (last.nanos() < toNanos && last.nanos() >= fromNanos) {
            // to the window's end, unless the GPU stopped answering: then only one sample period past its last reading
            long until = Math.min(toNanos, last.nanos() + (samples.size() > 1 ? typicalGap(samples) : 0));
            joules += last.watts() * (until - last.nanos()) / 1e9;
        }
        return joules;
    }

    /** The median gap between consecutive samples, ns: the source's interval as achieved. */
    static long typicalGap(List<GpuSample> samples) {
        if (samples.size() < 2) {
            return 0;
        }
        long[] gaps = new long[samples.size() - 1];
        for (int i = 0; i + 1 < samples.size(); i++) {
            gaps[i] = samples.get(i + 1).nanos() - samples.get(i).nanos();
        }
        java.util.Arrays.sort(gaps);
        return gaps[gaps.length / 2];
    }

    private static long union(List<long[]> spans) {
        spans.sort(Comparator.comparingLong(s -> s[0]));
        long total = 0;
        long start = Long.MIN_VALUE;
        long end = Long.MIN_VALUE;
        for (long[] s : spans) {
            if (s[0] > end) {
                total += Math.max(0, end - start);
                start = s[0];
                end = s[1];
            } else {
                end = Math.max(end, s[1]);
            }
        }
        return total + Math.max(0, end - start);
    }
}
