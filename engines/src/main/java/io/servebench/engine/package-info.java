/**
 * Engines: each {@link io.servebench.engine.EngineKind} (vLLM, SGLang, a generic command, an endpoint, the simulated
 * engine), named in {@link io.servebench.engine.EngineKinds} and nowhere else, owns its launch argument list (in a
 * container when the study names an image), version command, cache reset, usage statistics and
 * {@link io.servebench.engine.FlagDialect}. {@link io.servebench.engine.Engines} starts a
 * {@link io.servebench.engine.ServerConfig}, or the simulated engine in its place; {@code ProcessEngine} waits for
 * readiness, watches for crashes and stops the whole process tree (SIGTERM, grace, SIGKILL, also from a shutdown
 * hook). Commands are argument lists, never shell strings; {@link io.servebench.engine.Redaction} masks secrets.
 *
 * <p>Imports {@code metrics}, {@code load}, {@code workload}, the simulator and the result model; never the study, plan
 * or runner layers.
 */
package io.servebench.engine;
