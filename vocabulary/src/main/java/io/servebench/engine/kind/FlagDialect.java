package io.servebench.engine.kind;

import io.servebench.flags.EngineFlags;
import io.servebench.flags.Flag;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The command line of one real engine: the command a person types to start it, and how it spells each
 * typed {@code @ServerOptions} setting. Engine kinds that read these flags share one dialect (the simulated
 * engine reads vLLM's).
 *
 * @param engineName         the engine as people name it, for reports: {@code vLLM}
 * @param serveCommand       the program and the arguments before the flags, {@value #MODEL} standing for the model:
 *                           {@code vllm serve {model}}
 * @param flags              how the engine spells each setting (the simulated engine reads the same spellings)
 * @param speculative        the arguments of speculative decoding for a method ({@code mtp}, {@code eagle}, ...), its
 *                           draft tokens, its draft model ({@code null} for a method without one) and the served
 *                           model; throws {@link IllegalArgumentException} for a method the engine lacks
 */
public record FlagDialect(String engineName, List<String> serveCommand, EngineFlags flags,
                          Speculative speculative) {

    /** How an engine spells speculative decoding. */
    @FunctionalInterface
    public interface Speculative {
        List<String> flags(String method, int tokens, String draftModel, String servedModel);
    }

    /** Where the model goes in {@link #serveCommand()}. */
    public static final String MODEL = "{model}";

    /** The flag of the address the engine listens on, which ServeBench gives it. */
    public static final String HOST = "--host";

    /** The flag of the port the engine listens on, which ServeBench picks free, gives it and waits on. */
    public static final String PORT = "--port";

    public FlagDialect {
        Objects.requireNonNull(engineName, "engineName");
        serveCommand = List.copyOf(serveCommand);
        Objects.requireNonNull(flags, "flags");
        Objects.requireNonNull(speculative, "speculative");
    }

    /** {@link #serveCommand()} for {@code model}, with {@code program} instead of its first word when not empty. */
    public List<String> serve(String program, String model) {
        List<String> argv = new ArrayList<>(serveCommand.stream().map(a -> a.replace(MODEL, model)).toList());
        if (!program.isEmpty()) {
            argv.set(0, program);
        }
        return argv;
    }

    /**
     * The flags ServeBench writes itself on this engine's command line, which a study's own would contradict: where it
     * listens ({@link #HOST}, {@link #PORT}) and every flag of the serve command (SGLang's {@code --model-path}, the
     * study's model).
     */
    public List<String> ownFlags() {
        List<String> own = new ArrayList<>(List.of(HOST, PORT));
        serveCommand.stream().filter(word -> word.startsWith("--")).forEach(own::add);
        return List.copyOf(own);
    }

    /**
     * The shell command that starts this configuration by hand: {@code vllm serve MODEL --flag ...}, each argument
     * quoted where a POSIX shell needs it (a JSON flag value does).
     */
    public String handRun(String model, List<String> args) {
        List<String> argv = serve("", model);
        argv.addAll(args);
        return String.join(" ", argv.stream().map(ShellWords::quote).toList());
    }

    /**
     * The memory share of this engine's meaning: each share is spelled only for the engine that has a setting of its
     * meaning (vLLM's whole budget, SGLang's weights and KV cache), and one stated for an engine without its meaning,
     * with no share of that engine's own, is refused rather than written as a different set-up.
     */
    private List<String> memoryShare(ServerSettingsOptions o) {
        List<String> args = new ArrayList<>();
        if (o.gpuMemoryFraction() != null && flags.gpuMemoryUtilization() != null) {
            args.add(flags.gpuMemoryUtilization() + "=" + o.gpuMemoryFraction());
        }
        if (o.staticMemoryFraction() != null && flags.staticMemoryFraction() != null) {
            args.add(flags.staticMemoryFraction() + "=" + o.staticMemoryFraction());
        }
        if (args.isEmpty() && o.gpuMemoryFraction() != null) {
            throw new IllegalArgumentException("gpuMemoryFraction = " + o.gpuMemoryFraction() + " is the whole GPU budget"
                    + " (vLLM's --gpu-memory-utilization), which this engine has no setting for; its "
                    + flags.staticMemoryFraction() + " covers weights and KV cache only: state staticMemoryFraction for it");
        }
        if (args.isEmpty() && o.staticMemoryFraction() != null) {
            throw new IllegalArgumentException("staticMemoryFraction = " + o.staticMemoryFraction() + " is the share for"
                    + " weights and KV cache only (SGLang's --mem-fraction-static), which this engine has no setting for;"
                    + " its " + flags.gpuMemoryUtilization() + " is the whole GPU budget: state gpuMemoryFraction for it");
        }
        return args;
    }

    /** The typed options as flags of this dialect, in the order of {@link ServerSettingsOptions}'s components. */
    List<Flag> spell(ServerSettingsOptions o, String servedModel) {
        List<String> args = new ArrayList<>();
        if (o.maxModelLen() != null) {
            args.add(flags.maxModelLen() + "=" + o.maxModelLen());
        }
        if (o.tensorParallelSize() != null) {
            args.add(flags.tensorParallelSize() + "=" + o.tensorParallelSize());
        }
        args.addAll(memoryShare(o));
        if (o.maxNumSeqs() != null) {
            args.add(flags.maxNumSeqs() + "=" + o.maxNumSeqs());
        }
        if (o.prefixCaching() != null) {
            args.addAll(o.prefixCaching() ? flags.prefixCachingOn() : flags.prefixCachingOff());
        }
        if (o.speculative() != null) {
            int colon = o.speculative().indexOf(':');
            args.addAll(speculative.flags(o.speculative().substring(0, colon),
                    Integer.parseInt(o.speculative().substring(colon + 1)), o.draftModel(), servedModel));
        }
        return args.stream().map(a -> Flag.parse(a).orElseThrow()).toList();
    }
}
