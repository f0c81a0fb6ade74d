package io.servebench.results;

import java.util.Objects;

/**
 * How a person starts a block's server configuration by hand, as the engine layer spelled it when the block ran.
 *
 * @param command    the shell command, arguments quoted for a POSIX shell where needed:
 *                   {@code vllm serve Qwen/Qwen3.5-9B --max-model-len=32768}
 * @param engineName the engine the command starts, as people name it: {@code vLLM}
 * @param simulated  whether the block's numbers came from the simulated engine standing in for that engine
 */
public record ServeCommand(String command, String engineName, boolean simulated) {

    public ServeCommand {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(engineName, "engineName");
    }
}
