package io.servebench.http;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time spent by some threads, split as the kernel accounts it. On loopback most of a streaming
 * client's cost is in the kernel (socket reads and writes), so the split says whether a faster client
 * is still possible in user code.
 *
 * <p>On Linux the JVM reads the total from a nanosecond clock but the user part from the kernel's tick
 * counters (10 ms on most kernels), so over a short span the user part can read higher than the total;
 * it is clamped to {@code [0, totalNs]}, which makes the split coarse (a tick per thread) but never
 * more than the whole.
 *
 * @param totalNs CPU time, user and kernel, nanoseconds
 * @param userNs  of which in user mode, nanoseconds, at scheduler-tick resolution
 */
public record CpuTime(long totalNs, long userNs) {

    public CpuTime {
        userNs = Math.max(0, Math.min(userNs, totalNs));
    }

    public static final CpuTime ZERO = new CpuTime(0, 0);

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Time in the kernel on the threads' behalf, nanoseconds. */
    public long kernelNs() {
        return totalNs - userNs;
    }

    public CpuTime plus(CpuTime other) {
        return new CpuTime(totalNs + other.totalNs, userNs + other.userNs);
    }

    public CpuTime minus(CpuTime other) {
        return new CpuTime(totalNs - other.totalNs, userNs - other.userNs);
    }

    /** The calling thread's CPU time so far; {@link #ZERO} where the JVM does not measure thread CPU time. */
    public static CpuTime ofCurrentThread() {
        if (!THREADS.isCurrentThreadCpuTimeSupported()) {
            return ZERO;
        }
        return new CpuTime(THREADS.getCurrentThreadCpuTime(), THREADS.getCurrentThreadUserTime());
    }

    /** {@code thread}'s CPU time so far; {@link #ZERO} once it ended or where the JVM cannot tell. */
    static CpuTime of(Thread thread) {
        if (!THREADS.isThreadCpuTimeSupported()) {
            return ZERO;
        }
        long total = THREADS.getThreadCpuTime(thread.getId());
        long user = THREADS.getThreadUserTime(thread.getId());
        return total < 0 || user < 0 ? ZERO : new CpuTime(total, user);
    }
}
