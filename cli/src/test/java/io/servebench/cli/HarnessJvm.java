package io.servebench.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line in a JVM of its own, as the tests that interrupt, kill or bound a harness start it. */
final class HarnessJvm {

    private HarnessJvm() {
    }

    /** {@link #command(List, List)} with no further JVM options. */
    static List<String> command(String... args) {
        return command(List.of(), List.of(args));
    }

    /**
     * {@code java}, {@code jvmOptions}, the tests' class path, {@link Main} and {@code args}. The
     * JVM compiles with C1 only: it lives for seconds, its tests look at what it does rather than how fast, and C2's
     * compilations were half its CPU (12 s of CPU against 6 s for two repetitions of 40 requests), taken from the
     * other test classes that share the machine's two cores.
     */
    static List<String> command(List<String> jvmOptions, List<String> args) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1"));
        argv.addAll(jvmOptions);
        argv.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        argv.addAll(args);
        return argv;
    }
}
