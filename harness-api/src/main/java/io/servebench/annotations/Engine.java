package io.servebench.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The engine that serves the study's model and the flags every variant starts it with.
 *
 * <p>Each flag is one element: {@code "--name"}, {@code "--name=value"} or {@code "--name value"}.
 * The order of flags does not matter: two variants whose flags name the same values share one server.
 *
 * <p>Kinds and the command ServeBench runs for them (always as an argument list, never through a shell):
 * <ul>
 *   <li>{@code vllm}: {@code vllm serve MODEL --host 127.0.0.1 --port PORT FLAGS...}</li>
 *   <li>{@code sglang}: {@code python3 -m sglang.launch_server --model-path MODEL --host 127.0.0.1 --port PORT FLAGS...}</li>
 *   <li>{@code command}: {@link #command()} with {@code {model}}, {@code {host}} and {@code {port}} replaced, then FLAGS
 *       (TGI, {@code trtllm-serve}, llama.cpp's {@code llama-server}, any OpenAI-compatible server)</li>
 *   <li>{@code endpoint}: nothing is started; {@link #url()} is an already running server</li>
 *   <li>{@code sim}: the built-in simulated engine</li>
 * </ul>
 * With an {@link #image()}, {@code vllm}, {@code sglang} and {@code command} run in a container instead.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Engine {

    /** Engine kind: {@code "vllm"}, {@code "sglang"}, {@code "command"}, {@code "endpoint"} or {@code "sim"}. */
    String value() default "sim";

    /** Flags passed to the engine's serve command, in this engine's dialect. */
    String[] flags() default {};

    /**
     * The version of {@code vllm} or {@code sglang} the server runs, e.g. {@code "0.17.1"}: the annotation processor
     * checks every flag against that version's own argument parser (a misspelt flag, a flag of another version or a
     * value of the wrong form is a compile error on the flag). ServeBench knows vLLM 0.17.1 and 0.26.0 and SGLang 0.5.9
     * and 0.5.18; empty: the newest it knows. Other kinds have no flag lists.
     */
    String version() default "";

    /** The program to run instead of the kind's default ({@code vllm}, {@code python3}); e.g. a virtualenv's {@code bin/vllm}. */
    String executable() default "";

    /** Environment variables for the engine, each {@code NAME=value}, e.g. {@code CUDA_VISIBLE_DEVICES=0}. */
    String[] env() default {};

    /** Working directory of the engine process; the harness's own when empty. */
    String workdir() default "";

    /**
     * For kind {@code command}: the server's argument list, with {@code {port}} (required), {@code {host}}
     * and {@code {model}} placeholders, e.g. {@code {"llama-server", "-m", "{model}", "--port", "{port}"}}.
     */
    String[] command() default {};

    /** For kind {@code endpoint}: the running server's base URL, e.g. {@code http://10.0.0.5:8000}. */
    String url() default "";

    /**
     * A container image to run the engine in, e.g. {@code vllm/vllm-openai:v0.17.1}: ServeBench runs
     * {@code docker run} (or {@code podman run}) with the GPUs, the published port and the Hugging Face
     * cache mounted, and removes the container afterwards.
     */
    String image() default "";
}
