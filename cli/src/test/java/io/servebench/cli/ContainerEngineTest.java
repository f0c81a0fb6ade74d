package io.servebench.cli;

import io.servebench.runner.ContainerStudy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A study's engine in a container on a real runtime (Podman): the image is built here from this test's class path,
 * without a registry; the harness starts it with {@code podman run}, waits for it through the published port, runs
 * the trials, stops it, and leaves no container behind, not even when the harness is killed with SIGKILL (the
 * container is no child process of the harness: Podman's {@code conmon} keeps it).
 *
 * <p>CI sets Podman up with {@code scripts/podman-local setup} ({@code .ci/run}); without a working Podman the tests
 * are skipped and say so.
 */
class ContainerEngineTest {

    private static final Path SCRIPT = Path.of("..", "scripts", "podman-local");

    @BeforeAll
    static void buildImage() throws Exception {
        assumeThat(exec(Duration.ofSeconds(60), SCRIPT.toString(), "check").exit())
                .as("a working Podman (scripts/podman-local setup)").isZero();
        Result image = exec(Duration.ofMinutes(3), SCRIPT.toString(), "image", ContainerStudy.IMAGE,
                System.getProperty("java.class.path"));
        assertThat(image.exit()).as(image.output()).isZero();
    }

    @Test
    void aStudyRunsFromAnImageAndNoContainerIsLeft(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        int code = Main.execute(new String[] {"ContainerStudy", "--container-runtime", "podman", "--settle", "0",
                "-o", dir.toString()}, new PrintWriter(out, true), new PrintWriter(out, true));
        assertThat(code).as(out.toString()).isZero();

        String summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary).containsPattern("ContainerStudy\\.baseline \\|[^\\n]*\\| 4 \\| [0-9.]+ ")
                .containsPattern("ContainerStudy\\.fewerSequences \\|[^\\n]*\\| 4 \\| [0-9.]+ ");
        // two servers, each its own container, each started by podman run with the port published on 127.0.0.1 only
        try (var logs = Files.list(dir.resolve("logs"))) {
            List<Path> files = logs.toList();
            assertThat(files).hasSize(2);
            for (Path log : files) {
                assertThat(Files.readString(log)).contains("podman run --rm --name servebench-")
                        .containsPattern("-p 127\\.0\\.0\\.1:(\\d+):\\1 ")
                        .contains("io.servebench.sim.SimServer Qwen/Qwen3.5-9B --host 0.0.0.0 --port");
            }
        }
        // the simulated engine in the container read the study's flags as vllm serve would
        assertThat(summary).contains("--max-num-seqs=64");
        assertThat(containers()).isEmpty();
    }

    @Test
    void killingTheHarnessWithSigkillLeavesNoContainerWithinFiveSeconds(@TempDir Path dir) throws Exception {
        Process harness = new ProcessBuilder(HarnessJvm.command("ContainerStudy.baseline", "--container-runtime", "podman",
                "-p", "requests=2000", "-v", "-o", dir.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("harness.out").toFile()).start();
        try {
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (!Files.readString(dir.resolve("harness.out")).contains("[1/1]") && System.nanoTime() < deadline) {
                assertThat(harness.isAlive()).as(Files.readString(dir.resolve("harness.out"))).isTrue();
                Thread.sleep(100);
            }
            assertThat(containers()).as("the running engine's container; harness output: "
                    + Files.readString(dir.resolve("harness.out"))).hasSize(1);

            harness.destroyForcibly();
            assertThat(harness.waitFor(10, TimeUnit.SECONDS)).isTrue();
            long killed = System.nanoTime();
            List<String> left = containers();
            while (!left.isEmpty() && System.nanoTime() - killed < Duration.ofSeconds(5).toNanos()) {
                Thread.sleep(100);
                left = containers();
            }
            assertThat(left).as("containers 5 s after the harness was killed").isEmpty();
        } finally {
            harness.destroyForcibly();
        }
    }

    /** ServeBench's containers, running or not. */
    private static List<String> containers() throws IOException, InterruptedException {
        Result ps = exec(Duration.ofSeconds(30), "podman", "ps", "--all", "--filter", "name=^servebench-",
                "--format", "{{.Names}}");
        assertThat(ps.exit()).as(ps.output()).isZero();
        return Arrays.stream(ps.output().split("\n")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private record Result(int exit, String output) {
    }

    private static Result exec(Duration timeout, String... argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            return new Result(-1, "timed out: " + String.join(" ", argv));
        }
        return new Result(p.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
