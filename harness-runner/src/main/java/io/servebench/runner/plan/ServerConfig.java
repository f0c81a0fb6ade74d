package io.servebench.runner.plan;

import io.servebench.runner.study.Flag;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What identifies one engine start: engine kind, model and flags. Flags are kept sorted by name, so
 * two variants that list the same flags in another order are one server configuration.
 *
 * @param engine engine kind ({@code vllm}, {@code sglang}, {@code sim}); the flags are in its dialect
 * @param model  the served model
 * @param flags  the flags, sorted by name, each name at most once
 */
public record ServerConfig(String engine, String model, List<Flag> flags) {

    public ServerConfig {
        flags = flags.stream().sorted(Comparator.comparing(Flag::name)).toList();
    }

    /** The flags as command-line arguments, in canonical order. */
    public List<String> args() {
        return flags.stream().map(Flag::toArg).toList();
    }

    /** A short stable hash of engine, model and flags, for ids and file names. */
    public String hash() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((engine + "\n" + model + "\n" + String.join("\n", args())).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** {@code vllm serve MODEL flags...} style, for plans and logs. */
    public String label() {
        return engine + " " + model + (flags.isEmpty() ? "" : " " + flags.stream().map(Flag::toArg).collect(Collectors.joining(" ")));
    }
}
