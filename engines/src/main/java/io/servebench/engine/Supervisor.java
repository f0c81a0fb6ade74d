package io.servebench.engine;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
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
 * java -cp HARNESS io.servebench.engine.Supervisor GRACE_MS SECRETS CLEANUP_WORDS [CLEANUP...] -- ENGINE_ARGV...
 * </pre>
 *
 * Its standard output and error are the engine's (the harness writes them to the server's log); its exit status
 * is the engine's, so a crash reads the same as without it. When the engine was started with secrets (an API key, a
 * token in its environment), the harness writes them down the pipe before anything else ({@link #tell}), never on a
 * command line that {@code ps} shows, and the supervisor passes the engine's output through a
 * {@link MaskingOutputStream}, so that what the engine logs of its own settings reaches the log file masked. It needs
 * nothing but the JDK and this package's {@link ProcessTree} and {@link MaskingOutputStream}, so its class path is this
 * class's own jar or folder.
 */
public final class Supervisor {

    private Supervisor() {
    }

    /** The command that runs {@code engine} under a supervisor: the harness's own {@code java}, this class's location. */
    static List<String> wrap(List<String> engine, Duration grace, List<String> cleanup) {
        return wrap(engine, grace, cleanup, 0);
    }

    /**
     * {@link #wrap(List, Duration, List)} for an engine whose log masks {@code secrets} texts, which the harness then
     * gives the supervisor with {@link #tell}.
     */
    static List<String> wrap(List<String> engine, Duration grace, List<String> cleanup, int secrets) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // A JVM of its own for one pipe read: keep it small and quick to start.
                "-Xmx16m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", classPath(), Supervisor.class.getName(),
                Long.toString(grace.toMillis()), Integer.toString(secrets), Integer.toString(cleanup.size())));
        argv.addAll(cleanup);
        argv.add("--");
        argv.addAll(engine);
        return argv;
    }

    /**
     * Gives a supervisor started by {@link #wrap(List, Duration, List, int)} its secrets, one line each in Base64 (a
     * secret may hold any character), and leaves the pipe open: closing it stops the engine.
     */
    static void tell(Process supervisor, List<String> secrets) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (String secret : secrets) {
            lines.append(Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8))).append('\n');
        }
        OutputStream pipe = supervisor.getOutputStream();
        pipe.write(lines.toString().getBytes(StandardCharsets.US_ASCII));
        pipe.flush();
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
        int secretCount = Integer.parseInt(args[1]);
        int cleanupWords = Integer.parseInt(args[2]);
        List<String> cleanup = List.of(args).subList(3, 3 + cleanupWords);
        if (!"--".equals(args[3 + cleanupWords])) {
            throw new IllegalArgumentException("expected -- before the engine's command, got " + args[3 + cleanupWords]);
        }
        List<String> engineArgv = List.of(args).subList(4 + cleanupWords, args.length);
        List<String> secrets = new ArrayList<>();
        for (int i = 0; i < secretCount; i++) {
            String line = readLine(System.in);
            if (line == null) {
                // the harness went before it told the secrets: nothing to start
                System.exit(1);
                return;
            }
            secrets.add(new String(Base64.getDecoder().decode(line), StandardCharsets.UTF_8));
        }
        // The engine's standard input stays a pipe nobody writes, as it would be under the harness directly.
        Process engine;
        try {
            ProcessBuilder builder = new ProcessBuilder(engineArgv);
            if (secrets.isEmpty()) {
                builder.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
            } else {
                builder.redirectErrorStream(true);
            }
            engine = builder.start();
        } catch (IOException e) {
            System.err.println("servebench supervisor: cannot start " + engineArgv.get(0) + ": " + e.getMessage());
            // the shell's status for a command that cannot be run
            System.exit(127);
            return;
        }
        Thread log = secrets.isEmpty() ? null : copyMasked(engine.getInputStream(), secrets);
        AtomicBoolean stopping = new AtomicBoolean();
        Runnable stop = () -> {
            if (stopping.compareAndSet(false, true)) {
                ProcessTree.stop(engine.toHandle(), grace);
                awaitLog(log);
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
        awaitLog(log);
        System.exit(status);
    }

    /** Copies the engine's output to this process's, the secrets masked, on a thread of its own. */
    private static Thread copyMasked(InputStream engineOutput, List<String> secrets) {
        Thread copy = new Thread(() -> {
            try (OutputStream out = new MaskingOutputStream(new FileOutputStream(FileDescriptor.out), secrets)) {
                byte[] buf = new byte[8192];
                int n;
                while ((n = engineOutput.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                }
            } catch (IOException e) {
                // the log went away (its disk, the harness's end): the engine runs on, unlogged
            }
        }, "supervisor-log");
        copy.setDaemon(true);
        copy.start();
        return copy;
    }

    /**
     * Waits a moment for the engine's last output to reach the log: the engine has ended, but a process it started
     * and that outlived it may still hold the pipe open.
     */
    private static void awaitLog(Thread log) {
        if (log != null) {
            try {
                log.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A line of {@code in} without its end, read a byte at a time so that nothing after it is taken; null at the end. */
    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                return null;
            }
            line.append((char) b);
        }
        return line.toString();
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
