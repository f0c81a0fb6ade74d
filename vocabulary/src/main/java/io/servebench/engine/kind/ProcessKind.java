package io.servebench.engine.kind;

import java.util.List;
import java.util.Map;

/**
 * A kind started as a child process, on this machine or, when the study names an image, in a container: a serving
 * program ServeBench knows ({@link ServerProgramKind}) or any command ({@link CommandKind}).
 */
public sealed interface ProcessKind extends EngineKind permits ServerProgramKind, CommandKind {

    /**
     * Environment variables a benchmark needs the engine to have (vLLM's cache-reset route, say); the study's own
     * {@code env} is laid over them, so it can still set them otherwise.
     */
    default Map<String, String> benchmarkEnvironment() {
        return Map.of();
    }

    /**
     * Flags a benchmark needs the engine to run with (SGLang's metrics, say), added after {@code --port} unless the
     * study gives them itself; not part of the command a study recommends for deployment.
     */
    default List<String> benchmarkFlags() {
        return List.of();
    }
}
