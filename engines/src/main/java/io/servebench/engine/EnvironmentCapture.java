package io.servebench.engine;

import io.servebench.results.ServerEnvironment;
import io.servebench.wire.http.ControlClient;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records what a server was and where it ran: engine version, GPU model, memory and driver (from
 * {@code nvidia-smi} when the machine has one), CPU, host, OS, JDK and ServeBench version. Every probe is
 * bounded in time and a probe that fails leaves its field empty: capture never fails a run.
 */
final class EnvironmentCapture {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern VERSION = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");

    private EnvironmentCapture() {
    }

    /**
     * @param engine         the engine kind as reports show it ({@code sim:vllm} under {@code --simulate})
     * @param versionCommand the command that prints the engine's version, empty when there is none
     * @param endpoint       asked for {@code GET /version} (vLLM and SGLang serve it) when the command gives nothing
     * @param apiKey         sent with that request as a bearer token when not {@code null}
     */
    public static ServerEnvironment capture(String serverId, String engine, String model, String command,
                                            List<String> versionCommand, Endpoint endpoint, String apiKey,
                                            String servebenchVersion) {
        String version = versionCommand.isEmpty() ? "" : lastLine(run(versionCommand));
        if (version.isEmpty() && endpoint != null) {
            version = versionFromServer(endpoint, apiKey);
        }
        return new ServerEnvironment(serverId, engine, version, model, command, gpus(), cpu(), host(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.version"), servebenchVersion,
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), List.of(), List.of(), List.of());
    }

    /** One line per GPU: {@code NVIDIA H100 80GB HBM3, 81559 MiB, 570.86.15}; empty without {@code nvidia-smi}. */
    static List<String> gpus() {
        String out = run(List.of("nvidia-smi", "--query-gpu=name,memory.total,driver_version", "--format=csv,noheader"));
        return out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    private static String cpu() {
        String model = "";
        try {
            model = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("");
        } catch (IOException | RuntimeException e) {
            // not Linux: the core count still says something
        }
        return (model.isEmpty() ? "" : model + ", ") + Runtime.getRuntime().availableProcessors() + " logical cores";
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "";
        }
    }

    private static String versionFromServer(Endpoint endpoint, String apiKey) {
        String base = endpoint.baseUri().toString();
        try {
            ControlClient.Reply r = new ControlClient(Duration.ofSeconds(2)).get(
                    java.net.URI.create((base.endsWith("/") ? base : base + "/") + "version"),
                    ControlClient.withBearer(Map.of(), apiKey), Duration.ofSeconds(5));
            Matcher m = VERSION.matcher(r.text());
            return r.status() == 200 && m.find() ? m.group(1) : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The command's standard output, {@code ""} when it cannot run, fails or takes too long. */
    static String run(List<String> command) {
        Path out = null;
        try {
            // Output to a file, not a pipe: a probe that hangs must not hang the reader.
            out = Files.createTempFile("servebench-probe", ".txt");
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectOutput(out.toFile()).start();
            if (!p.waitFor(PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                ProcessTree.stop(p.toHandle(), Duration.ofSeconds(1));
                return "";
            }
            return p.exitValue() == 0 ? Files.readString(out, StandardCharsets.UTF_8).strip() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        } finally {
            deleteQuietly(out);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                file.toFile().deleteOnExit();
            }
        }
    }

    /** The last non-empty line: version commands print warnings first and the version last. */
    private static String lastLine(String text) {
        return text.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> b).orElse("");
    }
}
