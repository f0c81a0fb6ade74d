/**
 * The engines' flag vocabulary, once for the whole harness: {@link io.servebench.flags.Flag} (one flag as written,
 * {@code --a=b} and {@code --a b} one flag, {@code _} for {@code -}) and {@link io.servebench.flags.EngineFlags}
 * (how vLLM and SGLang spell the settings both the engine layer and the simulated engine use). Imports only the JDK.
 */
package io.servebench.flags;
