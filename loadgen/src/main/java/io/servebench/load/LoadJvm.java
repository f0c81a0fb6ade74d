package io.servebench.load;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The Java runtime a load is sent from: the options of the processes ServeBench starts to send a load or answer one
 * (load workers, SLURM job workers, {@code loadcheck}'s split truth server), and what the collector of this process
 * pauses.
 *
 * <p>A send due while the collector has stopped the process waits for it, which is schedule lag. On the 16-core device at
 * 5,000 req/s x 100 tokens, G1's young pauses made lag P99 above 1 ms in 5 of 10 runs, and ZGC's sub-millisecond pauses
 * none in 10 (docs/measurement-truth.md).
 */
public final class LoadJvm {

    /** Options of every load-sending JVM ServeBench starts itself: ZGC, whose pauses stay under a millisecond. */
    public static final List<String> OPTIONS = List.of("-XX:+UseZGC");

    private LoadJvm() {
    }

    /**
     * The command that runs {@code main} with {@code args} in a load-sending JVM: this runtime's {@code java}, {@link
     * #OPTIONS}, and {@code classPath} (this process's, or the same made absolute for a job that starts elsewhere).
     */
    public static List<String> command(String classPath, Class<?> main, String... args) {
        List<String> command = new java.util.ArrayList<>();
        command.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(OPTIONS);
        command.addAll(List.of("-cp", classPath, main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * The collectors of this process that stop it: concurrent collectors report their cycles (ZGC's and Shenandoah's
     * "Cycles" beans), which run beside the application and are no pause.
     */
    public static List<GarbageCollectorMXBean> pausingCollectors() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().filter(b -> !b.getName().endsWith(" Cycles"))
                .toList();
    }

    /** Milliseconds this process has been stopped by its collector so far. */
    public static long pausedMs() {
        return pausingCollectors().stream().mapToLong(b -> Math.max(0, b.getCollectionTime())).sum();
    }

    /** Whether this process collects with ZGC, whose pauses stay under a millisecond. */
    public static boolean lowPause() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(b -> b.getName().startsWith("ZGC"));
    }
}
