package io.servebench.reports;

import io.servebench.results.TrialResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The shell command that starts a block's engine configuration by hand: {@code vllm serve MODEL flags}
 * or {@code python -m sglang.launch_server --model-path MODEL flags}, each argument quoted for a POSIX
 * shell where it needs it (a JSON flag value does).
 */
public final class ServeCommand {

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_./:=,@%+-]+");
    private static final String SIMULATED = "sim:";

    private ServeCommand() {
    }

    /**
     * The engine dialect whose flags the block uses: its {@code engine} param, without the {@code sim:}
     * prefix of a simulated run; {@code vllm} for the simulated engine's own kind, which reads vLLM's flags.
     */
    public static String dialect(TrialResult trial) {
        String engine = trial.params().getOrDefault("engine", "");
        String kind = engine.startsWith(SIMULATED) ? engine.substring(SIMULATED.length()) : engine;
        return "sim".equals(kind) ? "vllm" : kind;
    }

    /** Whether the block's numbers come from the simulated engine rather than the engine of its dialect. */
    public static boolean simulated(TrialResult trial) {
        String engine = trial.params().getOrDefault("engine", "");
        return engine.startsWith(SIMULATED) || "sim".equals(engine);
    }

    /** The command for the block's engine, model and flags; empty for a dialect without a known command. */
    public static Optional<String> of(TrialResult trial) {
        String model = trial.params().getOrDefault("model", "");
        List<String> args = new ArrayList<>();
        switch (dialect(trial)) {
            case "vllm" -> args.addAll(List.of("vllm", "serve", model));
            case "sglang" -> args.addAll(List.of("python", "-m", "sglang.launch_server", "--model-path", model));
            default -> {
                return Optional.empty();
            }
        }
        String flags = trial.params().getOrDefault(TrialResult.FLAGS, "").strip();
        if (!flags.isEmpty()) {
            // Flags are joined by single spaces; a new flag starts at " --", so a value's own spaces survive.
            args.addAll(List.of(flags.split(" (?=--)")));
        }
        return Optional.of(String.join(" ", args.stream().map(ServeCommand::quote).toList()));
    }

    /** {@code arg} as a POSIX shell reads it back: unchanged when plain, else in single quotes. */
    static String quote(String arg) {
        return SAFE.matcher(arg).matches() ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }
}
