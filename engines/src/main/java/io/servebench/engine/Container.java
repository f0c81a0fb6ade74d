package io.servebench.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Container mode of a process kind: the engine's own command run as the entrypoint of an image with
 * {@code docker run} or {@code podman run}, listening on 0.0.0.0 inside and published on the run's listen address
 * ({@link EngineParams#listenAddress()}: 127.0.0.1 only, unless load workers on other machines must reach it).
 */
final class Container {

    /** Hugging Face's cache inside the official vLLM and SGLang images. */
    static final String CONTAINER_HF_CACHE = "/root/.cache/huggingface";

    /** Where a server listens inside a container: every interface, so the published port reaches it. */
    static final String HOST = "0.0.0.0";

    private Container() {
    }

    /**
     * The launch of {@code serve} (the engine's argument list, listening on {@link #HOST}) in {@code server}'s image:
     * environment passed with {@code -e}, and the container removed with {@code rm -f} after it stopped, even if the
     * runtime's client was killed.
     */
    static LaunchCommand launch(ServerConfig server, int port, String publishedOn, String runtime, Path hostHfCache,
                                List<String> serve, Map<String, String> env, Path workdir) {
        String name = name(server, port);
        return new LaunchCommand(run(runtime, name, server.setup().image(), publishedOn, port, env, hostHfCache, serve,
                hostHasGpus()),
                Map.of(), workdir, port, List.of(runtime, "rm", "-f", name));
    }

    /**
     * Whether this host has NVIDIA GPUs to hand to a container: the driver's control device {@code /dev/nvidiactl}
     * exists. Without one, {@code --gpus all} (Docker) or {@code --device nvidia.com/gpu=all} (Podman's CDI) makes the
     * runtime refuse to start anything, the simulated engine in an image included.
     */
    static boolean hostHasGpus() {
        return Files.exists(Path.of("/dev/nvidiactl"));
    }

    /**
     * {@code docker run} (or podman) of the image with the engine's command as entrypoint and arguments:
     * all GPUs when {@code gpus}, host IPC (PyTorch's shared memory), the port published on {@code publishedOn}, the
     * Hugging Face cache mounted, the environment passed with {@code -e} ({@code -e NAME} for a variable whose value is
     * {@code null}: the runtime's own), and the container removed when it stops.
     */
    static List<String> run(String runtime, String name, String image, String publishedOn, int port,
                            Map<String, String> env, Path hostHfCache, List<String> serve, boolean gpus) {
        List<String> argv = new ArrayList<>(List.of(runtime, "run", "--rm", "--name", name));
        if (gpus && "podman".equals(runtime)) {
            argv.addAll(List.of("--device", "nvidia.com/gpu=all"));
        } else if (gpus) {
            argv.addAll(List.of("--gpus", "all"));
        }
        argv.addAll(List.of("--ipc=host", "-p", publishedOn + ":" + port + ":" + port,
                "-v", hostHfCache + ":" + CONTAINER_HF_CACHE));
        // a variable without a value is handed on: the runtime fills it in from its own environment
        env.forEach((k, v) -> argv.addAll(List.of("-e", v == null ? k : k + "=" + v)));
        argv.addAll(List.of("--entrypoint", serve.get(0), image));
        argv.addAll(serve.subList(1, serve.size()));
        return argv;
    }

    /** The container's name: {@code servebench-<hash>-<port>}, unique per start and recognisable in {@code docker ps}. */
    static String name(ServerConfig server, int port) {
        return "servebench-" + server.hash() + "-" + port;
    }
}
