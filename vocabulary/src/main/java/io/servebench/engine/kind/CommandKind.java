package io.servebench.engine.kind;

import java.util.Map;

/**
 * Any OpenAI-compatible server started from the study's own argument list, {@code @Engine(command = ...)}, with
 * {@value #PORT}, {@value #HOST} and {@value #MODEL} filled in (llama.cpp's {@code llama-server}, TGI, ...). ServeBench
 * knows none of its flags, its version command or a cache reset.
 *
 * @param name the kind's name
 */
public record CommandKind(String name) implements ProcessKind {

    public static final String PORT = "{port}";
    public static final String HOST = "{host}";
    public static final String MODEL = "{model}";

    @Override
    public Map<String, String> setupProblems(EngineSetup setup) {
        if (setup.command().isEmpty()) {
            return Map.of("value", "engine kind \"" + name + "\" needs command = {...}: the server's argument list with a "
                    + PORT + " placeholder, e.g. {\"llama-server\", \"-m\", \"" + MODEL + "\", \"--port\", \"" + PORT + "\"}");
        }
        if (setup.command().stream().noneMatch(arg -> arg.contains(PORT))) {
            return Map.of("command", "command has no " + PORT + " placeholder; expected the argument that sets the"
                    + " server's port to contain " + PORT + ", e.g. \"--port\", \"" + PORT + "\"");
        }
        return Map.of();
    }
}
