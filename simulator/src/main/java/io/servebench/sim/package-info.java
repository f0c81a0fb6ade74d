/**
 * The simulated engine: a real OpenAI-compatible HTTP server ({@link io.servebench.sim.SimulatedEngine}) whose
 * token timing follows a model of an inference engine on a GPU, a continuous-batching {@code Scheduler} driven by a
 * roofline {@code StepCostModel} of a {@code ModelProfile} on a {@code GpuProfile}. It reads vLLM's or SGLang's flags
 * ({@link io.servebench.sim.SimDialect}) into {@link io.servebench.sim.SimParams}, serves {@code /metrics} under vLLM's
 * names, and keeps a {@link io.servebench.sim.GroundTruth} of every request: when it arrived and when each token event
 * left. {@link io.servebench.sim.SimServer} runs it as a process of its own, like {@code vllm serve}.
 *
 * <p>Token times come from the model, never from how busy the CPU is; all times are {@link System#nanoTime()} of the
 * engine's JVM. Depends on {@code io.servebench.truth} (the event record both ground truths share), the JDK and
 * Jackson; never on the harness.
 */
package io.servebench.sim;
