package io.servebench.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A small process between the harness and each engine it starts, so that no engine outlives the harness, not even
 * one killed with SIGKILL. No JVM code runs when the harness is SIGKILLed, but the kernel then closes the
 * harness's end of the pipe on this process's standard input; the supervisor reads that end of file and stops the
 * engine's whole process tree (SIGTERM, the grace period, SIGKILL) and runs the cleanup command (removing a
 * container), then exits. The harness stops an engine the same way: by closing the pipe.
 *
 * <pre>
 * java -cp HARNESS io.servebench.engine.Supervisor GRACE_MS CLEANUP_WORDS [CLEANUP...] -- ENGINE_ARGV...
 * </pre>
 *
 * Its standard output and error are the engine's (the harness writes them to the server's log); its exit status
 * is the engine's, so a crash reads the same as without it. It needs nothing but the JDK and this package's
 * {@link ProcessTree}, so its class path is this class's own jar or folder.
 */
public final class Supervisor {

    private Supervisor() {
    }

    /** The command that runs {@code engine} under a supervisor: the harness's own {@code java}, this class's location. */
    static List<String> wrap(List<String> engine, Duration grace, List<String> cleanup) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // A JVM of its own for one pipe read: keep it small and quick to start.
                "-Xmx16m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", classPath(), Supervisor.class.getName(),
                Long.toString(grace.toMillis()), Integer.toString(cleanup.size())));
        argv.addAll(cleanup);
        argv.add("--");
        argv.addAll(engine);
        return argv;
    }

    private static String classPath() {
        try {
            return Path.of(Supervisor.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            // a class loader without a code source: the harness's class path holds this class too
            return System.getProperty("java.class.path");
        }
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Duration grace = Duration.ofMillis(Long.parseLong(args[0]));
        int cleanupWords = Integer.parseInt(args[1]);
        List<String> cleanup = List.of(args).subList(2, 2 + cleanupWords);
        if (!"--".equals(args[2 + cleanupWords])) {
            throw new IllegalArgumentException("expected -- before the engine's command, got " + args[2 + cleanupWords]);
        }
        List<String> engineArgv = List.of(args).subList(3 + cleanupWords, args.length);
        // The engine's standard input stays a pipe nobody writes, as it would be under the harness directly.
        Process engine;
        try {
            engine = new ProcessBuilder(engineArgv).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            System.err.println("servebench supervisor: cannot start " + engineArgv.get(0) + ": " + e.getMessage());
            // the shell's status for a command that cannot be run
            System.exit(127);
            return;
        }
        AtomicBoolean stopping = new AtomicBoolean();
        Runnable stop = () -> {
            if (stopping.compareAndSet(false, true)) {
                ProcessTree.stop(engine.toHandle(), grace);
                runCleanup(cleanup);
            }
        };
        // SIGTERM or Ctrl-C of the supervisor itself stops the engine too.
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "supervisor-stop"));
        Thread watch = new Thread(() -> {
            awaitEndOfFile(System.in);
            stop.run();
            Runtime.getRuntime().halt(exitStatus(engine));
        }, "supervisor-pipe");
        watch.setDaemon(true);
        watch.start();
        int status = engine.waitFor();
        if (stopping.get()) {
            watch.join();
        }
        System.exit(status);
    }

    private static void awaitEndOfFile(InputStream in) {
        byte[] discard = new byte[256];
        try {
            while (in.read(discard) >= 0) {
                // the harness never writes; anything read is ignored
            }
        } catch (IOException closed) {
            // a broken pipe is the harness gone as much as an end of file is
        }
    }

    private static int exitStatus(Process engine) {
        try {
            return engine.waitFor();
        } catch (InterruptedException e) {
            return 1;
        }
    }

    private static void runCleanup(List<String> cleanup) {
        if (cleanup.isEmpty()) {
            return;
        }
        try {
            Process p = new ProcessBuilder(cleanup).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                ProcessTree.stop(p.toHandle(), Duration.ofSeconds(1));
            }
        } catch (IOException e) {
            System.err.println("servebench supervisor: cleanup " + String.join(" ", cleanup) + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
