package io.servebench.plan;

import io.servebench.engine.kind.EngineSetup;

import java.util.List;

/**
 * The command line's engine settings ({@code --engine-exe}, {@code --engine-env}, {@code --engine-workdir},
 * {@code --engine-url}), which override every study's: the same study runs on a machine whose vLLM lives
 * in another virtualenv, or against another endpoint, without editing it.
 *
 * @param executable replaces the kind's program when not empty
 * @param env        {@code NAME=value} entries added to (or replacing those of) the study's environment
 * @param workdir    replaces the working directory when not empty
 * @param url        replaces an endpoint's URL when not empty
 */
public record EngineOverrides(String executable, List<String> env, String workdir, String url) {

    /** No override. */
    public static final EngineOverrides NONE = new EngineOverrides("", List.of(), "", "");

    public EngineOverrides {
        env = List.copyOf(env);
        for (String entry : env) {
            int eq = entry.indexOf('=');
            if (eq <= 0 || !entry.substring(0, eq).matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("--engine-env " + entry + ": expected NAME=value, e.g. CUDA_VISIBLE_DEVICES=0");
            }
        }
        if (!url.isEmpty() && !url.matches("https?://[^/\\s]+.*")) {
            throw new IllegalArgumentException("--engine-url " + url + ": expected an http(s) URL such as http://127.0.0.1:8000");
        }
    }

    EngineSetup applyTo(EngineSetup setup) {
        return this.equals(NONE) ? setup : setup.overriddenBy(executable, env, workdir, url);
    }
}
