/**
 * The engine kinds a study can name, as data: each {@link io.servebench.engine.kind.EngineKind} (a serving program
 * ServeBench knows, vLLM and SGLang; any command; a running endpoint; the simulated engine), listed in
 * {@link io.servebench.engine.kind.EngineKinds} and nowhere else, with its {@link io.servebench.engine.kind.FlagDialect}
 * (how the typed {@code @ServerOptions} are spelled, the serve command), its cache reset and usage statistics, and the
 * checks of a study's {@code @Engine} setup. How each is started, stopped and asked its version is the engine layer's
 * ({@code io.servebench.engine}); {@link io.servebench.engine.kind.Redaction} masks secrets and
 * {@link io.servebench.engine.kind.ShellWords} quotes an argument list for a person to read. Imports only the flags.
 */
package io.servebench.engine.kind;
