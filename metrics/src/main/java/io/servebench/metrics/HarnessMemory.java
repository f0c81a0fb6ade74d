package io.servebench.metrics;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

/**
 * The harness's own memory while a load runs, sampled every {@value #INTERVAL_MS} ms on a daemon thread: the heap
 * in use (garbage not yet collected included) and the process's resident set ({@code VmRSS} of
 * {@code /proc/self/status}, absent where there is none), each at its highest. A client near its heap's limit spends
 * its time collecting garbage and measures itself, not the server: the reports show both figures per repetition.
 */
public final class HarnessMemory implements AutoCloseable {

    /** Sampling interval, ms. */
    static final long INTERVAL_MS = 100;

    private static final Path STATUS = Path.of("/proc/self/status");

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final Thread sampler;
    private volatile boolean stopped;
    private long peakHeapBytes;
    private long peakRssKb = -1;

    private HarnessMemory() {
        sample();
        sampler = new Thread(() -> {
            while (!stopped) {
                try {
                    Thread.sleep(INTERVAL_MS);
                } catch (InterruptedException e) {
                    return;
                }
                sample();
            }
        }, "servebench-harness-memory");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts sampling. */
    public static HarnessMemory start() {
        return new HarnessMemory();
    }

    private synchronized void sample() {
        peakHeapBytes = Math.max(peakHeapBytes, memory.getHeapMemoryUsage().getUsed());
        residentKb().ifPresent(kb -> peakRssKb = Math.max(peakRssKb, kb));
    }

    /** The highest heap in use so far, MB. */
    public synchronized double peakHeapMb() {
        return peakHeapBytes / 1048576.0;
    }

    /** The highest resident set so far, MB; empty where the system does not say. */
    public synchronized OptionalDouble peakResidentMb() {
        return peakRssKb < 0 ? OptionalDouble.empty() : OptionalDouble.of(peakRssKb / 1024.0);
    }

    /** Stops sampling, after a last sample. */
    @Override
    public void close() {
        stopped = true;
        sampler.interrupt();
        sample();
    }

    private static java.util.OptionalLong residentKb() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmRSS:")) {
                    return java.util.OptionalLong.of(Long.parseLong(line.replaceAll("[^0-9]", "")));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no procfs: no resident set to report
        }
        return java.util.OptionalLong.empty();
    }
}
