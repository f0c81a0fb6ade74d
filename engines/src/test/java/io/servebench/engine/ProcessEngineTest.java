package io.servebench.engine;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimParams;
import io.servebench.sim.SimulatedEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The engine lifecycle against fake engines that fail the ways real ones do, and the simulated engine as a process. */
class ProcessEngineTest {

    private static final Duration GRACE = Duration.ofSeconds(1);

    private static String script(String name) throws Exception {
        return Path.of(ProcessEngineTest.class.getResource("/fake-engines/" + name).toURI()).toString();
    }

    private static LaunchCommand bash(String script, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("bash", script(script)));
        argv.addAll(List.of(args));
        return new LaunchCommand(argv, Map.of(), null, ProcessEngine.freePort());
    }

    @Test
    void anEngineThatExitsAtOnceFailsWithItsExitCodeAndLogTail(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("s01.log");
        assertThatThrownBy(() -> ProcessEngine.start(bash("exits-at-once.sh", "m"), "m", log, Duration.ofSeconds(30), GRACE, null))
                .isInstanceOf(EngineStartException.class)
                .hasMessageContaining("exited with code 3")
                .hasMessageContaining(log.toString())
                .hasMessageContaining("CUDA out of memory (fake)");
    }

    @Test
    void aFlagTheInstalledVersionRefusesIsToldWithThatVersionsOwnWords(@TempDir Path dir) throws Exception {
        // the study's flags were checked against vLLM 0.26.0, the newest ServeBench knows; the machine has 0.17.1
        io.servebench.engine.ServerConfig server = new io.servebench.engine.ServerConfig(EngineKinds.VLLM, "m",
                List.of(io.servebench.flags.Flag.parse("--spec-tokens=2").orElseThrow()), new io.servebench.engine.kind.EngineSetup(
                script("old-vllm.sh"), List.of(), "", List.of(), "", ""));
        assertThatThrownBy(() -> Engines.start(server, EngineParams.defaults(EngineParams.Simulate.OFF, 1),
                dir.resolve("s01.log")))
                .isInstanceOf(EngineStartException.class)
                .hasMessageContaining("error: unrecognized arguments: --spec-tokens=2")
                .hasMessageContaining("(the engine here reports version 0.17.1, whose parser ServeBench knows: flag"
                        + " --spec-tokens is not a flag of vLLM 0.17.1 (vLLM 0.26.0 has it")
                .hasMessageEndingWith("; name it, @Engine(version = \"0.17.1\") or @Variant(engineVersion), to have the"
                        + " compiler check the study's flags against it)");
    }

    @Test
    void aProgramThatIsNotInstalledFailsAtOnceSayingWhereToNameItOrHowToRehearse(@TempDir Path dir) {
        LaunchCommand missing = new LaunchCommand(List.of("servebench-no-such-vllm", "serve", "m"), Map.of(), null,
                ProcessEngine.freePort());
        assertThatThrownBy(() -> ProcessEngine.start(missing, "m", dir.resolve("s01.log"), Duration.ofSeconds(30), GRACE,
                null))
                .isInstanceOf(EngineStartException.class)
                .hasMessageStartingWith("cannot start servebench-no-such-vllm: no such executable program (is it installed")
                .hasMessageContaining("--engine-exe PATH")
                .hasMessageContaining("--simulate rehearses a vllm or sglang study on the simulated engine");
    }

    @Test
    void theKeysAnEngineLogsReachNeitherItsLogNorTheFailure(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("s10.log");
        LaunchCommand command = new LaunchCommand(List.of("bash", script("logs-its-settings.sh"), "m", "--api-key",
                "sk-live-123"), Map.of("HF_TOKEN", "hf_abc"), null, ProcessEngine.freePort());
        assertThatThrownBy(() -> ProcessEngine.start(command, "m", log, Duration.ofSeconds(30), GRACE, "client-key-9"))
                .hasMessageContaining("exited with code 3")
                .hasMessageContaining("api_key='***', hf_token='***'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("sk-live-123", "hf_abc"));
        assertThat(Files.readString(log)).contains("--api-key ***\n", "api_key='***', hf_token='***'", "key: ***\n")
                .doesNotContain("sk-live", "hf_abc");
    }

    @Test
    void anEngineThatNeverBecomesReadyTimesOutNamingItsLog(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("s02.log");
        long started = System.nanoTime();
        assertThatThrownBy(() -> ProcessEngine.start(bash("never-ready.sh"), "m", log, Duration.ofSeconds(2), GRACE, null))
                .hasMessageContaining("not ready after 2 s")
                .hasMessageContaining("waiting for health")
                .hasMessageContaining(log.toString())
                .hasMessageContaining("this takes forever");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        assertThat(ProcessHandle.current().descendants().filter(p -> p.info().commandLine().orElse("").contains("sleep 1000")))
                .isEmpty();
    }

    @Test
    void anEngineThatIgnoresSigtermIsKilled(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("s03.log");
        List<ProcessHandle> before = ProcessHandle.current().children().toList();
        assertThatThrownBy(() -> ProcessEngine.start(bash("ignores-sigterm.sh"), "m", log, Duration.ofSeconds(1), GRACE, null))
                .hasMessageContaining("not ready");
        assertThat(Files.readString(log)).contains("ignoring SIGTERM");
        assertThat(ProcessHandle.current().children().filter(p -> !before.contains(p)).filter(ProcessHandle::isAlive)).isEmpty();
    }

    @Test
    void aWorkerTheEngineStartedDiesWithIt(@TempDir Path dir) throws Exception {
        Path pidFile = dir.resolve("worker.pid");
        Path log = dir.resolve("s04.log");
        assertThatThrownBy(() -> ProcessEngine.start(bash("spawns-child.sh", pidFile.toString()), "m", log,
                Duration.ofSeconds(2), GRACE, null)).hasMessageContaining("not ready");
        long worker = Long.parseLong(Files.readString(pidFile).strip());
        assertThat(ProcessHandle.of(worker).map(ProcessHandle::isAlive).orElse(false)).as("worker %d alive", worker).isFalse();
    }

    /**
     * An engine's port lies below the kernel's local port range (read here from procfs, as the kernel states it), where
     * no outgoing connection takes its local end, and nothing is bound to it.
     */
    @Test
    void anEnginesPortIsFreeAndOutsideTheRangeOutgoingConnectionsTakeTheirsFrom() throws Exception {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(range), "no procfs port range on this OS");
        int low = Integer.parseInt(String.join(" ", Files.readAllLines(range)).trim().split("\\s+")[0]);
        for (int i = 0; i < 20; i++) {
            int port = ProcessEngine.freePort();
            assertThat(port).isLessThan(low).isGreaterThanOrEqualTo(Math.max(1024, low - ProcessEngine.PORTS_BELOW_LOCAL_RANGE));
            try (java.net.ServerSocket socket = new java.net.ServerSocket()) {
                socket.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
            }
        }
    }

    @Test
    void theSimulatedEngineAsAProcessServesAndLeavesNothingBehind(@TempDir Path dir) throws Exception {
        int port = ProcessEngine.freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        LaunchCommand command = new LaunchCommand(List.of(java, "-cp", System.getProperty("java.class.path"),
                io.servebench.sim.SimServer.class.getName(), "Qwen/Qwen3-8B", "--port", Integer.toString(port),
                "--max-num-seqs", "8"), Map.of(), null, port);
        Path log = dir.resolve("s05.log");
        ProcessEngine engine = ProcessEngine.start(command, "Qwen/Qwen3-8B", log, Duration.ofSeconds(60), Duration.ofSeconds(10), null);
        long pid = engine.pid();
        try {
            assertThat(engine.endpoint().baseUri().toString()).isEqualTo("http://127.0.0.1:" + port);
            assertThat(engine.failure()).isEmpty();
            assertThat(Files.readString(log)).contains("SimServer Qwen/Qwen3-8B").contains("serving Qwen/Qwen3-8B");
        } finally {
            engine.close();
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(ProcessEngine.awaitPortFree(port, Duration.ofSeconds(1))).isTrue();
        assertThat(engine.failure()).as("a stopped engine did not crash").isEmpty();
    }

    @Test
    void aCrashWhileRunningIsReportedWithExitCodeAndLog(@TempDir Path dir) throws Exception {
        int port = ProcessEngine.freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        LaunchCommand command = new LaunchCommand(List.of(java, "-cp", System.getProperty("java.class.path"),
                io.servebench.sim.SimServer.class.getName(), "Qwen/Qwen3-8B", "--port", Integer.toString(port)), Map.of(), null, port);
        try (ProcessEngine engine = ProcessEngine.start(command, "Qwen/Qwen3-8B", dir.resolve("s06.log"), Duration.ofSeconds(60),
                GRACE, null)) {
            ProcessHandle process = ProcessHandle.of(engine.pid()).orElseThrow().children().findFirst().orElseThrow();
            process.destroyForcibly();
            process.onExit().get();
            ProcessHandle.of(engine.pid()).ifPresent(supervisor -> supervisor.onExit().join());
            assertThat(awaitFailure(engine)).hasValueSatisfying(f -> assertThat(f).contains("exited with code 137")
                    .contains("during the trial").contains("s06.log"));
        }
    }

    @Test
    void anEngineWhoseSupervisorWasKilledIsStoppedByTheHarness(@TempDir Path dir) throws Exception {
        int port = ProcessEngine.freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        LaunchCommand command = new LaunchCommand(List.of(java, "-cp", System.getProperty("java.class.path"),
                io.servebench.sim.SimServer.class.getName(), "Qwen/Qwen3-8B", "--port", Integer.toString(port)), Map.of(), null, port);
        ProcessEngine engine = ProcessEngine.start(command, "Qwen/Qwen3-8B", dir.resolve("s09.log"), Duration.ofSeconds(60),
                GRACE, null);
        ProcessHandle supervisor = ProcessHandle.of(engine.pid()).orElseThrow();
        ProcessHandle server = supervisor.children().findFirst().orElseThrow();
        supervisor.destroyForcibly();
        supervisor.onExit().join();
        assertThat(server.isAlive()).as("orphaned by its supervisor's death").isTrue();
        assertThat(awaitFailure(engine)).isPresent();

        engine.close();
        assertThat(server.isAlive()).as("engine %d alive", server.pid()).isFalse();
        assertThat(ProcessEngine.awaitPortFree(port, Duration.ofSeconds(1))).isTrue();
        assertThat(Files.readString(dir.resolve("s09.log"))).contains("the engine's supervisor is gone but process "
                + server.pid() + " of the engine is not; stopping it");
    }

    @Test
    void whenTheHarnessEndOfThePipeClosesTheSupervisorStopsTheEngineAndItsWorkers(@TempDir Path dir) throws Exception {
        // What the kernel does to the pipe when the harness is SIGKILLed, without killing this JVM.
        Path pidFile = dir.resolve("worker.pid");
        Path marker = dir.resolve("cleaned");
        Process supervisor = new ProcessBuilder(Supervisor.wrap(List.of("bash", script("spawns-child.sh"), pidFile.toString()),
                Duration.ofSeconds(1), List.of("touch", marker.toString())))
                .redirectErrorStream(true).redirectOutput(dir.resolve("s07.log").toFile()).start();
        long worker = awaitPid(pidFile);
        ProcessHandle engine = supervisor.toHandle().children().findFirst().orElseThrow();
        assertThat(ProcessHandle.of(worker)).hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());

        supervisor.getOutputStream().close();
        assertThat(supervisor.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).as("supervisor exited within 5 s").isTrue();
        assertThat(engine.isAlive()).as("engine %d alive", engine.pid()).isFalse();
        assertThat(ProcessHandle.of(worker).map(ProcessHandle::isAlive).orElse(false)).as("worker %d alive", worker).isFalse();
        assertThat(marker).as("the cleanup command ran").exists();
    }

    @Test
    void theSupervisorExitsWithTheEnginesStatus(@TempDir Path dir) throws Exception {
        Process supervisor = new ProcessBuilder(Supervisor.wrap(List.of("bash", "-c", "exit 7"), GRACE, List.of()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("s08.log").toFile()).start();
        assertThat(supervisor.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(supervisor.exitValue()).isEqualTo(7);
    }

    /**
     * The engine's failure once its {@link Process} has seen the exit. A handle's {@code onExit()} completes the same
     * future whose dependent stage marks the {@code Process} exited, so a test woken by the first may look before the
     * second has run (CI saw {@code failure()} empty right after the supervisor's {@code onExit().join()}).
     */
    private static java.util.Optional<String> awaitFailure(ProcessEngine engine) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (engine.failure().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return engine.failure();
    }

    private static long awaitPid(Path pidFile) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!Files.exists(pidFile) || Files.readString(pidFile).isBlank()) {
            assertThat(System.nanoTime() - deadline).as("no pid file %s", pidFile).isNegative();
            Thread.sleep(20);
        }
        return Long.parseLong(Files.readString(pidFile).strip());
    }

    @Test
    void anEndpointIsWaitedForButNeverStopped(@TempDir Path dir) throws Exception {
        try (SimulatedEngine sim = SimulatedEngine.start(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of()), 0, 1)) {
            io.servebench.engine.ServerConfig server = new io.servebench.engine.ServerConfig(EngineKinds.ENDPOINT, "Qwen/Qwen3-8B", List.of(),
                    new io.servebench.engine.kind.EngineSetup("", List.of(), "", List.of(), sim.baseUri() + "/v1", ""));
            RunningEngine engine = Engines.start(server, EngineParams.defaults(EngineParams.Simulate.OFF, 1), dir.resolve("e.log"));
            engine.close();
            assertThat(engine.endpoint().baseUri().toString()).isEqualTo(sim.baseUri() + "/");
            // an endpoint's whole URL, as a curl command names it, is cut back to the same base
            io.servebench.engine.ServerConfig pasted = new io.servebench.engine.ServerConfig(EngineKinds.ENDPOINT,
                    "Qwen/Qwen3-8B", List.of(), new io.servebench.engine.kind.EngineSetup("", List.of(), "", List.of(),
                    sim.baseUri() + "/v1/chat/completions", ""));
            try (RunningEngine whole = Engines.start(pasted, EngineParams.defaults(EngineParams.Simulate.OFF, 1),
                    dir.resolve("e2.log"))) {
                assertThat(whole.endpoint().baseUri().toString()).isEqualTo(sim.baseUri() + "/");
            }
            // still serving after close: not ours to stop
            assertThat(CacheReset.reset(EngineKinds.VLLM, new Endpoint(sim.baseUri(), sim.model(), sim.metricsUri()), null)).isNotNull();
            java.net.http.HttpResponse<String> health = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(sim.baseUri().resolve("/health")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
        }
    }
}
