package io.servebench.engine.kind;

import java.util.Map;
import java.util.Optional;

/**
 * One kind of engine a study names in {@code @Engine(value)}: what a study may say of it and what ServeBench asks of
 * it. The kinds are listed, by name, in {@link EngineKinds} and nowhere else; the study checker, the planner, the
 * runner and the reports ask the kind rather than compare its name. How each kind is started is the engine layer's
 * ({@code io.servebench.engine.Engines}), for the four shapes this interface permits: a known serving program, any
 * command, a running endpoint, the simulated engine.
 */
public sealed interface EngineKind permits ProcessKind, EndpointKind, SimulatedKind {

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

    /**
     * What is wrong with a study's {@code @Engine} setup for this kind itself: attribute ({@code value},
     * {@code command}, {@code url}) to message, each naming what was expected; empty (the default) when the kind
     * needs nothing. {@link EngineKinds#setupProblems} adds the attributes that belong to other kinds.
     */
    default Map<String, String> setupProblems(EngineSetup setup) {
        return Map.of();
    }
}
