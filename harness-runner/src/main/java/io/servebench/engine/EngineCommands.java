package io.servebench.engine;

import io.servebench.engine.ServerConfig;
import io.servebench.engine.EngineSetup;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the exact argument list ServeBench runs for an engine kind. Every server listens on
 * 127.0.0.1 (0.0.0.0 inside a container, published on 127.0.0.1 only) on a port ServeBench chose.
 */
public final class EngineCommands {

    /** Hugging Face's cache inside the official vLLM and SGLang images. */
    static final String CONTAINER_HF_CACHE = "/root/.cache/huggingface";

    private EngineCommands() {
    }

    /**
     * The command for {@code server} on {@code port}.
     *
     * @param containerRuntime {@code docker} or {@code podman}, used when the setup names an image
     * @param hostHfCache      the host's Hugging Face cache, mounted into containers
     * @throws IllegalArgumentException for a kind that is not started as a process
     */
    public static LaunchCommand of(ServerConfig server, int port, String containerRuntime, Path hostHfCache) {
        EngineSetup setup = server.setup();
        boolean container = !setup.image().isEmpty();
        String host = container ? "0.0.0.0" : "127.0.0.1";
        List<String> serve = switch (server.engine()) {
            case "vllm" -> concat(List.of(orDefault(setup.executable(), "vllm"), "serve", server.model(), "--host", host,
                    "--port", Integer.toString(port)), server.args());
            case "sglang" -> concat(List.of(orDefault(setup.executable(), "python3"), "-m", "sglang.launch_server",
                    "--model-path", server.model(), "--host", host, "--port", Integer.toString(port)), server.args());
            case "command" -> concat(setup.command().stream().map(arg -> arg.replace("{port}", Integer.toString(port))
                    .replace("{host}", host).replace("{model}", server.model())).toList(), server.args());
            default -> throw new IllegalArgumentException("engine kind \"" + server.engine() + "\" is not started as a process");
        };
        Map<String, String> env = env(setup);
        Path workdir = setup.workdir().isEmpty() ? null : Path.of(setup.workdir());
        if (!container) {
            return new LaunchCommand(serve, env, workdir, port);
        }
        String name = containerName(server, port);
        return new LaunchCommand(containerRun(containerRuntime, name, setup.image(), port, env, hostHfCache, serve), Map.of(),
                workdir, port, List.of(containerRuntime, "rm", "-f", name));
    }

    /**
     * {@code docker run} (or podman) of the image with the engine's command as entrypoint and arguments:
     * all GPUs, host IPC (PyTorch's shared memory), the port published on 127.0.0.1 only, the Hugging Face
     * cache mounted, the environment passed with {@code -e}, and the container removed when it stops.
     */
    static List<String> containerRun(String runtime, String name, String image, int port, Map<String, String> env,
                                     Path hostHfCache, List<String> serve) {
        List<String> argv = new ArrayList<>(List.of(runtime, "run", "--rm", "--name", name));
        if ("podman".equals(runtime)) {
            argv.addAll(List.of("--device", "nvidia.com/gpu=all"));
        } else {
            argv.addAll(List.of("--gpus", "all"));
        }
        argv.addAll(List.of("--ipc=host", "-p", "127.0.0.1:" + port + ":" + port,
                "-v", hostHfCache + ":" + CONTAINER_HF_CACHE));
        env.forEach((k, v) -> argv.addAll(List.of("-e", k + "=" + v)));
        argv.addAll(List.of("--entrypoint", serve.get(0), image));
        argv.addAll(serve.subList(1, serve.size()));
        return argv;
    }

    /**
     * The command that prints the engine's version, empty when the kind has none (a container's version is
     * its image tag; a generic command or an endpoint is asked over HTTP).
     */
    public static List<String> versionCommand(ServerConfig server) {
        if (!server.setup().image().isEmpty()) {
            return List.of();
        }
        return switch (server.engine()) {
            case "vllm" -> List.of(orDefault(server.setup().executable(), "vllm"), "--version");
            case "sglang" -> List.of(orDefault(server.setup().executable(), "python3"), "-c",
                    "import sglang; print(sglang.__version__)");
            default -> List.of();
        };
    }

    /** The container's name: {@code servebench-<hash>-<port>}, unique per start and recognisable in {@code docker ps}. */
    public static String containerName(ServerConfig server, int port) {
        return "servebench-" + server.hash() + "-" + port;
    }

    private static Map<String, String> env(EngineSetup setup) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String entry : setup.env()) {
            int eq = entry.indexOf('=');
            env.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
        return env;
    }

    private static String orDefault(String value, String fallback) {
        return value.isEmpty() ? fallback : value;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
