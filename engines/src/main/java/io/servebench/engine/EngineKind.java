package io.servebench.engine;

import io.servebench.sim.SimDialect;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One kind of engine a study names in {@code @Engine(value)}: everything ServeBench does differently for it.
 * The kinds are listed, by name, in {@link EngineKinds} and nowhere else; the study checker, the planner, the
 * runner and the reports ask the kind rather than compare its name.
 */
public interface EngineKind {

    /** The name a study writes, {@code @Engine("vllm")}; also in trial ids and the {@code engine} param of blocks. */
    String name();

    /**
     * The flags this kind reads: how the typed {@code @ServerOptions} are spelled, the real engine's name and the
     * command that starts it by hand; empty (the default) for a kind whose command line ServeBench does not know.
     */
    default Optional<FlagDialect> dialect() {
        return Optional.empty();
    }

    /**
     * Whether requests ask for cumulative usage on every chunk ({@code stream_options.continuous_usage_stats}) unless
     * the workload says otherwise: the kinds that honour it (vLLM; SGLang since sgl-project/sglang#12241). Not asked
     * by default, as a server that does not know the option may refuse the request.
     */
    default boolean continuousUsage() {
        return false;
    }

    /**
     * The {@code POST} path that counts a text's tokens with the model's tokenizer ({@code /tokenize}, which vLLM,
     * SGLang and the simulated engine serve); empty (the default) for a kind that may have none.
     */
    default Optional<String> tokenizePath() {
        return Optional.empty();
    }

    /** The {@code POST} path that empties the prefix cache between two trials; empty (the default) for none. */
    default Optional<String> cacheResetPath() {
        return Optional.empty();
    }

    /**
     * The flag of the key that opens this kind's admin routes, where they want one of their own (SGLang's
     * {@code --admin-api-key}); empty (the default) where the API key opens every route.
     */
    default Optional<String> adminKeyFlag() {
        return Optional.empty();
    }

    /** The flags the simulated engine reads when it stands in for this kind ({@code --simulate}); vLLM's by default. */
    default SimDialect simDialect() {
        return SimDialect.VLLM;
    }

    /**
     * What is wrong with a study's {@code @Engine} setup for this kind itself: attribute ({@code value},
     * {@code command}, {@code url}) to message, each naming what was expected; empty (the default) when the kind
     * needs nothing. {@link EngineKinds#setupProblems} adds the attributes that belong to other kinds.
     */
    default Map<String, String> setupProblems(EngineSetup setup) {
        return Map.of();
    }

    /** The command that prints the engine's version, empty when there is none (a container's version is its image). */
    default List<String> versionCommand(ServerConfig server) {
        return List.of();
    }

    /**
     * The process to start for {@code server} on {@code port}, in a container when its setup names an image.
     *
     * @param containerRuntime {@code docker} or {@code podman}
     * @param hostHfCache      the host's Hugging Face cache, mounted into containers
     * @throws IllegalArgumentException for a kind that is not started as a process
     */
    default LaunchCommand launch(ServerConfig server, int port, String containerRuntime, Path hostHfCache) {
        throw new IllegalArgumentException("engine kind \"" + name() + "\" is not started as a process");
    }

    /**
     * Starts the engine for {@code server} and returns once it is ready.
     *
     * @throws EngineStartException when it cannot start or does not become ready; the message names the log
     */
    RunningEngine start(ServerConfig server, EngineOptions options, Path log) throws EngineStartException;
}
