/**
 * The OpenAI-compatible API as ServeBench's clients and servers speak it: {@link io.servebench.wire.openai.CompletionRequest}
 * is a streaming completion's request body, written by the load generator and parsed (with vLLM's checks) by the
 * simulated engine and the ground-truth server; {@link io.servebench.wire.openai.StreamChunks} builds the response's
 * events (role, tokens, usage, errors, {@code [DONE]}) for both servers; {@link io.servebench.wire.openai.Routes} are the
 * routes the load generator and the engine layer call and both servers answer. Imports the JDK and Jackson.
 */
package io.servebench.wire.openai;
