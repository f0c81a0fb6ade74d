/**
 * Engines: starts a {@link io.servebench.engine.ServerConfig} of one of the vocabulary's engine kinds
 * ({@link io.servebench.engine.kind.EngineKind}: vLLM, SGLang, a generic command, an endpoint, the simulated engine), or
 * the simulated engine in its place ({@link io.servebench.engine.Engines}, which alone decides that); {@code KindStarts}
 * turns each kind into its launch argument list (in a container when the study names an image), its version command,
 * the start itself and the dialect the simulated engine reads for it. {@code ProcessEngine} waits for readiness, watches
 * for crashes and stops the whole process tree (SIGTERM, grace, SIGKILL, also from a shutdown hook). Commands are
 * argument lists, never shell strings.
 *
 * <p>Imports the engine kinds, {@code metrics}, {@code load}, {@code workload}, the simulator and the result model;
 * never the study, plan or runner layers.
 */
package io.servebench.engine;
