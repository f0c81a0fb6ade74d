package io.servebench.cli;

import io.servebench.runner.RunOptions;
import io.servebench.runner.Runner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run records the command line that repeats it ({@link Runner#commandLine()}, written by the runner from its
 * options), and {@code --resume} parses that back with the command line's own options: every option the runner
 * writes must read back as the option it came from, at the value it had. The runner spells the options a second time
 * (it cannot see this module), so a name or a value's form written one way and read another fails here, not in a
 * resumed run.
 */
class RecordedCommandLineTest {

    /** Every option the recorded command line carries, each away from its default, in three runs that cannot share one. */
    static Stream<List<String>> runs() {
        String config = Path.of("model-config.json").toAbsolutePath().toString();
        return Stream.of(
                List.of("QuickStart", "-p", "requests=4", "-p", "rate=1,2", "--trial", "t01-sim-0123abcd-constant-1",
                        "-r", "3", "--slo", "ttft=500,tpot=50", "--simulate=virtual", "--simulate-gpu", "h200",
                        "--sim-model-config", config, "--sim-acceptance-rate", "0.7,0.5", "--seed", "7", "--fresh-server",
                        "--settle", "1.5", "--slice", "2", "--timeline-gap", "50", "--ready-timeout", "30",
                        "--stop-grace", "3", "--container-runtime", "podman", "--engine-exe", "/opt/vllm/bin/vllm",
                        "--engine-env", "HF_HOME=/data/hf", "--engine-workdir", "/srv", "--gpu-telemetry", "nvidia-smi",
                        "--gpu-interval", "200", "--gpus", "0,1", "--gpu-cost", "2.5", "--api-key-env", "MY_KEY",
                        "--connect-timeout", "5", "--request-timeout", "60.5", "--load-workers", "2",
                        "--max-failed-share", "0.5", "--jmh-primary", "ttft.p99", "--jmh-params-in-name", "--quick",
                        "--lang", "zh-CN"),
                List.of("QuickStart", "--simulate=process", "--capacity=0.95", "--slo", "ttft=200", "--engine-url",
                        "http://gpu-host:8000", "--gpu-telemetry-url", "http://gpu-host:9400/metrics", "--executor", "slurm",
                        "--partition", "gpu", "--account", "lab", "--time", "2:00:00", "--gpus-per-server", "1",
                        "--sbatch-arg=--exclusive"),
                List.of("run", "--engine", "sim", "--model", "Qwen/Qwen3-8B", "--flags", "--max-num-seqs 64",
                        "--profile", "gamma", "--rate", "4", "--requests", "20", "--burstiness", "0.5", "--simulate", "--capacity",
                        "--slo", "ttft=300"));
    }

    @ParameterizedTest
    @MethodSource("runs")
    void whatARunRecordsReadsBackAsTheOptionsItWasStartedWith(List<String> args) {
        RunOptions given = options(args);
        List<String> recorded = new Runner(given, new PrintWriter(Writer.nullWriter())).commandLine();

        assertThat(options(recorded)).as("read back from %s", recorded).isEqualTo(given);
    }

    private static RunOptions options(List<String> args) {
        return Main.parseRecorded(args, new CommandLine(new Main())).runOptions();
    }
}
