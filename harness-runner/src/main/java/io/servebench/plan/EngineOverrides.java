package io.servebench.plan;

import io.servebench.engine.kind.EngineSetup;
import io.servebench.engine.kind.Redaction;

import java.util.List;

/**
 * The command line's engine settings ({@code --engine-exe}, {@code --engine-env}, {@code --engine-workdir},
 * {@code --engine-url}), which override every study's: the same study runs on a machine whose vLLM lives
 * in another virtualenv, or against another endpoint, without editing it.
 *
 * @param executable replaces the kind's program when not empty
 * @param env        {@code NAME=value} entries, or a bare {@code NAME} handing on ServeBench's own, added to (or
 *                   replacing those of) the study's environment
 * @param workdir    replaces the working directory when not empty
 * @param url        replaces an endpoint's URL when not empty
 */
public record EngineOverrides(String executable, List<String> env, String workdir, String url) {

    /** No override. */
    public static final EngineOverrides NONE = new EngineOverrides("", List.of(), "", "");

    public EngineOverrides {
        env = List.copyOf(env);
        for (String entry : env) {
            String name = EngineSetup.variable(entry);
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("--engine-env " + entry + ": expected NAME=value, e.g."
                        + " CUDA_VISIBLE_DEVICES=0, or NAME alone to hand on ServeBench's own");
            }
            if (!EngineSetup.handedOn(entry) && Redaction.isSecretName(name)) {
                // the run's journal keeps the command line with the value masked, so --resume could not give it again
                throw new IllegalArgumentException("--engine-env " + name + "=...: a secret on the command line reaches"
                        + " the shell's history, and --resume would find it masked in the journal; export " + name
                        + " and write --engine-env " + name + " to hand it on");
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
