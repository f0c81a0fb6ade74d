package io.servebench.metrics.gpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code nvidia-smi --query-gpu=... --format=csv -lms N} as a child process (an argument list), one line per GPU and
 * sample; it has no energy counter, so energy is integrated from its power readings. Samples are timed by the
 * timestamps nvidia-smi writes (ms), which do not depend on when its buffered output reaches the harness.
 */
final class NvidiaSmiSource implements TelemetrySource {

    private final String executable;
    private final String reasonsField;

    private NvidiaSmiSource(String executable, String reasonsField) {
        this.executable = executable;
        this.reasonsField = reasonsField;
    }

    /** The source, when {@code executable} runs and answers {@code --help-query-gpu}; empty otherwise. */
    static java.util.Optional<NvidiaSmiSource> probe(String executable) {
        try {
            Process p = new ProcessBuilder(executable, "--help-query-gpu").redirectErrorStream(true).start();
            String help = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return java.util.Optional.empty();
            }
            String reasons = help.contains(NvidiaSmiCsv.REASONS_FIELD) ? NvidiaSmiCsv.REASONS_FIELD
                    : NvidiaSmiCsv.OLD_REASONS_FIELD;
            return java.util.Optional.of(new NvidiaSmiSource(executable, reasons));
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }

    @Override
    public String name() {
        return "nvidia-smi";
    }

    /** The command line, as an argument list. */
    List<String> command(List<Integer> gpus, Duration interval) {
        List<String> args = new ArrayList<>(List.of(executable,
                "--query-gpu=" + String.join(",", NvidiaSmiCsv.queryFields(reasonsField)), "--format=csv",
                "-lms", Long.toString(Math.max(1, interval.toMillis()))));
        if (!gpus.isEmpty()) {
            args.add("--id=" + gpus.stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
        return args;
    }

    @Override
    public AutoCloseable start(List<Integer> gpus, Duration interval, Consumer<GpuSample> sink) throws IOException {
        Process process = new ProcessBuilder(command(gpus, interval)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        // the wall clock of nvidia-smi's timestamps against the monotonic clock of every other reading
        long offset = System.nanoTime() - System.currentTimeMillis() * 1_000_000;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String header = in.readLine();
                if (header == null) {
                    return;
                }
                NvidiaSmiCsv csv = new NvidiaSmiCsv(header, ZoneId.systemDefault());
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    csv.parse(line, System.nanoTime(), millis -> offset + millis * 1_000_000).ifPresent(sink);
                }
            } catch (IOException | IllegalArgumentException e) {
                // the process was stopped, or printed no CSV: the samples so far stand
            }
        }, "nvidia-smi reader");
        reader.setDaemon(true);
        reader.start();
        return () -> {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            reader.join(5_000);
        };
    }
}
