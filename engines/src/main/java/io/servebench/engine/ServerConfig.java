package io.servebench.engine;


import io.servebench.engine.kind.EngineKind;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.engine.kind.Redaction;
import io.servebench.flags.Flag;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * What identifies one engine start: engine kind, model, flags and how the engine is started
 * (executable, environment, working directory, command, URL, image). Flags and environment entries
 * are kept sorted, so two variants that list the same ones in another order are one server
 * configuration.
 *
 * @param kind   the engine kind; the flags are in its dialect
 * @param model  the served model
 * @param flags  the flags, sorted by name, each name at most once
 * @param setup  how the engine is started beyond kind and flags
 * @param simulatedModelConfig the model's {@code config.json} (or its folder) that the simulated engine reads when it
 *               serves or stands in for this server ({@code @ServerOptions(simulatedModelConfig)}); {@code ""}: none
 */
public record ServerConfig(EngineKind kind, String model, List<Flag> flags, EngineSetup setup,
                           String simulatedModelConfig) {

    public ServerConfig {
        java.util.Objects.requireNonNull(kind, "kind");
        java.util.Objects.requireNonNull(simulatedModelConfig, "simulatedModelConfig");
        flags = flags.stream().sorted(Comparator.comparing(Flag::name)).toList();
        setup = new EngineSetup(setup.executable(), setup.env().stream().sorted().toList(), setup.workdir(),
                setup.command(), setup.url(), setup.image());
    }

    /** A configuration without a model config for the simulated engine. */
    public ServerConfig(EngineKind kind, String model, List<Flag> flags, EngineSetup setup) {
        this(kind, model, flags, setup, "");
    }

    /** A configuration started the kind's default way. */
    public ServerConfig(EngineKind kind, String model, List<Flag> flags) {
        this(kind, model, flags, EngineSetup.NONE);
    }

    /** Everything that makes two configurations one: the planner's identity for a server start. */
    public String key() {
        return label() + "\n" + setup;
    }

    /**
     * The name requests give the model: the first of {@code --served-model-name}'s names when an engine that reads it
     * is given one (vLLM then refuses the model's path with a 404), else {@link #model()}.
     */
    public String servedModel() {
        if (kind.dialect().isEmpty()) {
            return model;
        }
        return flags.stream().filter(f -> f.name().equals(io.servebench.flags.EngineFlags.SERVED_MODEL_NAME))
                .map(Flag::values).filter(v -> !v.isEmpty()).map(v -> v.get(0)).findFirst().orElse(model);
    }

    /** The flags as command-line arguments, in canonical order. */
    public List<String> args() {
        return flags.stream().map(Flag::toArg).toList();
    }

    /** A short stable hash of the configuration, for ids and file names. */
    public String hash() {
        return hash(key());
    }

    /** A short stable hash of a text, as ids and file names carry it: the first four bytes of its SHA-256, in hex. */
    public static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /**
     * {@code vllm MODEL flags...}, then what the setup adds ({@code [image ...]}, {@code [env ...]} with
     * secrets masked, ...), for plans and logs.
     */
    public String label() {
        StringBuilder sb = new StringBuilder(kind.name()).append(' ').append(model);
        flags.forEach(f -> sb.append(' ').append(f.toArg()));
        if (!setup.command().isEmpty()) {
            sb.append(" [command ").append(String.join(" ", Redaction.args(setup.command()))).append(']');
        }
        if (!setup.url().isEmpty()) {
            sb.append(" [url ").append(setup.url()).append(']');
        }
        if (!setup.image().isEmpty()) {
            sb.append(" [image ").append(setup.image()).append(']');
        }
        if (!setup.executable().isEmpty()) {
            sb.append(" [executable ").append(setup.executable()).append(']');
        }
        if (!setup.env().isEmpty()) {
            sb.append(" [env ").append(String.join(" ", Redaction.args(setup.env()))).append(']');
        }
        if (!setup.workdir().isEmpty()) {
            sb.append(" [workdir ").append(setup.workdir()).append(']');
        }
        if (!simulatedModelConfig.isEmpty()) {
            sb.append(" [simulated model config ").append(simulatedModelConfig).append(']');
        }
        return sb.toString();
    }
}
