package io.servebench.engine;

import io.servebench.engine.kind.Redaction;
import io.servebench.http.HostLimits;
import io.servebench.wire.openai.Routes;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An engine running as a child process: started from a {@link LaunchCommand} under a {@link Supervisor}, with its
 * output in a log file, waited for until {@link Readiness ready}, watched for crashes, and stopped with its whole
 * process tree. A JVM shutdown hook stops every engine still running (Ctrl-C, a failing harness); the supervisor
 * stops it when the harness dies without running any code (SIGKILL, a crash of the JVM).
 */
final class ProcessEngine implements RunningEngine {

    private static final Set<ProcessEngine> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(e -> e.stop(Duration.ofSeconds(5))),
                "servebench-engine-reaper"));
    }

    private final Process process;
    private final LaunchCommand command;
    private final Path log;
    private final Endpoint endpoint;
    private final Duration grace;
    /** The engine's processes under the supervisor once it was ready, for stopping them if the supervisor dies. */
    private volatile List<ProcessHandle> tree = List.of();
    private final AtomicBoolean stopped = new AtomicBoolean();
    /** What to check when the engine's program cannot be started. */
    private static final String NOT_FOUND = " (is it installed and on the PATH? a study names it with"
            + " @Engine(executable = ...), the command line with --engine-exe PATH; on a machine without it,"
            + " --simulate rehearses a vllm or sglang study on the simulated engine)";

    private ProcessEngine(Process process, LaunchCommand command, Path log, Endpoint endpoint, Duration grace) {
        this.process = process;
        this.command = command;
        this.log = log;
        this.endpoint = endpoint;
        this.grace = grace;
    }

    /**
     * Starts the command and waits until the engine serves {@code model}.
     *
     * @param readyTimeout how long loading may take (large models take minutes)
     * @param grace        how long the engine gets to exit after SIGTERM before SIGKILL
     * @throws EngineStartException when it cannot start, exits, or is not ready in time; the message names
     *                              the log and shows its last lines. The process is stopped before this is thrown.
     */
    public static ProcessEngine start(LaunchCommand command, String model, Path log, Duration readyTimeout, Duration grace,
                                      String apiKey) throws EngineStartException {
        return start(command, model, false, log, readyTimeout, grace, apiKey, notice -> { });
    }

    /**
     * Like {@link #start(LaunchCommand, String, Path, Duration, Duration, String)}, for an engine that takes a LoRA
     * adapter as {@code "base:adapter"} when {@code adapterAfterBase} (SGLang), telling {@code waiting} what a long
     * start waits for.
     */
    static ProcessEngine start(LaunchCommand command, String model, boolean adapterAfterBase, Path log,
                               Duration readyTimeout, Duration grace, String apiKey, Consumer<String> waiting)
            throws EngineStartException {
        // An engine may log its own settings: the secrets it is started with (its API key, secret flags' and
        // variables' values) are masked in its log as it writes it.
        List<String> secrets = new java.util.ArrayList<>(Redaction.values(command.argv(), command.env()));
        if (apiKey != null) {
            secrets.add(apiKey);
        }
        ProcessBuilder builder = new ProcessBuilder(Supervisor.wrap(command.argv(), grace, command.cleanup(),
                secrets.size()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(command.env());
        if (command.workdir() != null) {
            builder.directory(command.workdir().toFile());
        }
        // Under the supervisor a missing program would only show as an exit code: find it first, as exec would.
        if (!executableFound(command.argv().get(0), builder.environment().get("PATH"), command.workdir())) {
            throw new EngineStartException("cannot start " + command.argv().get(0) + ": no such executable program"
                    + NOT_FOUND);
        }
        Process process;
        try {
            Files.writeString(log, "$ " + command.display() + System.lineSeparator(),
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            process = builder.start();
            Supervisor.tell(process, secrets);
        } catch (IOException e) {
            throw new EngineStartException("cannot start " + command.argv().get(0) + ": " + e.getMessage()
                    + NOT_FOUND, e);
        }
        URI base = URI.create("http://127.0.0.1:" + command.port());
        ProcessEngine engine = new ProcessEngine(process, command, log,
                new Endpoint(base, model, base.resolve(Routes.METRICS), adapterAfterBase), grace);
        RUNNING.add(engine);
        try {
            // a long start's notice ends with the log's last line as a terminal shows it (a loading bar's progress)
            new Readiness(base, model, apiKey).await(readyTimeout, () -> engine.exitReason().orElse(null), notice -> {
                String last = LogTail.lastLine(log, 160);
                waiting.accept(last.isEmpty() ? notice : notice + "; its log ends: " + last);
            });
            engine.tree = process.toHandle().descendants().toList();
        } catch (EngineStartException e) {
            engine.close();
            throw new EngineStartException("engine " + command.argv().get(0) + " " + e.getMessage() + "; "
                    + LogTail.describe(log), e);
        }
        return engine;
    }

    @Override
    public Endpoint endpoint() {
        return endpoint;
    }

    /** The id of the engine's supervisor, whose one child is the engine; for tests and logs. */
    public long pid() {
        return process.pid();
    }

    /** The command it runs, secrets masked. */
    @Override
    public String commandLine() {
        return command.display();
    }

    /** Why the engine is no longer serving ("exited with code 1"), empty while it runs or after {@link #close()}. */
    public Optional<String> exitReason() {
        if (process.isAlive() || stopped.get()) {
            return Optional.empty();
        }
        return Optional.of("exited with code " + process.exitValue());
    }

    @Override
    public Optional<String> failure() {
        return exitReason().map(reason -> "engine " + reason + " during the trial; " + LogTail.describe(log));
    }

    @Override
    public void close() {
        stop(grace);
    }

    private void stop(Duration gracePeriod) {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        try {
            // The supervisor stops the engine's tree and runs the cleanup when its pipe closes, as after SIGKILL.
            try {
                process.getOutputStream().close();
            } catch (IOException alreadyGone) {
                // the supervisor has exited: nothing reads the pipe any more
            }
            if (!awaitExit(gracePeriod.plusSeconds(40))) {
                appendToLog("the engine's supervisor did not stop it in time; stopping the whole tree");
                ProcessTree.stop(process.toHandle(), Duration.ofSeconds(1));
            }
            // a supervisor that was killed stopped nothing: its engine, orphaned, is stopped from here
            for (ProcessHandle orphan : tree) {
                if (orphan.isAlive()) {
                    appendToLog("the engine's supervisor is gone but process " + orphan.pid() + " of the engine is not;"
                            + " stopping it");
                    ProcessTree.stop(orphan, gracePeriod);
                }
            }
            awaitPortFree(command.port(), Duration.ofSeconds(10));
        } finally {
            RUNNING.remove(this);
        }
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void appendToLog(String line) {
        try {
            Files.writeString(log, line + System.lineSeparator(), StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // the log is where we would report it
        }
    }

    /** Whether {@code program} names an executable file: a path as it stands, a bare name on one of {@code path}'s folders. */
    static boolean executableFound(String program, String path, Path workdir) {
        if (program.contains("/")) {
            Path file = workdir == null ? Path.of(program) : workdir.resolve(program);
            return Files.isRegularFile(file) && Files.isExecutable(file);
        }
        for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
            Path file = Path.of(dir.isEmpty() ? "." : dir).resolve(program);
            if (Files.isRegularFile(file) && Files.isExecutable(file)) {
                return true;
            }
        }
        return false;
    }

    /** Ports below the kernel's local (ephemeral) range that {@link #freePort} draws from. */
    static final int PORTS_BELOW_LOCAL_RANGE = 8192;

    /**
     * A port on 127.0.0.1 that nothing is bound to now, for an engine that binds it a moment later. Drawn below the
     * kernel's local port range where that range is known: a port from inside it (what binding port 0 gives) can be
     * taken as the local end of any outgoing connection on the machine, the load generator's own among them, before
     * the engine binds it, and the engine then dies with "Address already in use" (a CI run did so).
     */
    public static int freePort() {
        return freePort(EngineParams.LOOPBACK);
    }

    /**
     * {@link #freePort()} on {@code listenAddress}, where the engine will listen: a port free on 127.0.0.1 can be bound
     * on another interface, which an engine listening on every interface ({@code 0.0.0.0}) would then fail to bind.
     */
    static int freePort(String listenAddress) {
        InetAddress address;
        try {
            address = InetAddress.getByName(listenAddress);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("engines' listen address " + listenAddress + ": " + e.getMessage(), e);
        }
        HostLimits limits = HostLimits.current();
        int high = limits.portLow() - 1;
        int low = Math.max(1024, high - PORTS_BELOW_LOCAL_RANGE + 1);
        for (int attempt = 0; high >= low && attempt < 64; attempt++) {
            int port = java.util.concurrent.ThreadLocalRandom.current().nextInt(low, high + 1);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(address, port), 1);
                return port;
            } catch (IOException taken) {
                // in use: draw another
            }
        }
        try (ServerSocket socket = new ServerSocket(0, 1, address)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on " + listenAddress + ": " + e.getMessage(), e);
        }
    }

    /** Waits until the next engine can bind the port (a dying server may hold it for a moment). */
    static boolean awaitPortFree(int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return true;
            } catch (IOException busy) {
                if (System.nanoTime() - deadline > 0) {
                    return false;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
    }
}
