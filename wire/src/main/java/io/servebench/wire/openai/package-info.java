/**
 * The OpenAI-compatible API as the servers ServeBench runs write it: {@link io.servebench.wire.openai.StreamChunks}
 * builds a streaming completion's events (role, tokens, usage, errors, {@code [DONE]}) for the simulated engine and
 * the ground-truth server alike. Imports only the JDK.
 */
package io.servebench.wire.openai;
