package io.servebench.runner;

import io.servebench.engine.sim.SimSettings;
import io.servebench.engine.sim.SimulatedEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;

/**
 * {@code sim serve}: the simulated engine as a process of its own, started like {@code vllm serve},
 * so the whole process path (launch, readiness, teardown) runs on machines without a GPU.
 */
@Command(name = "sim", description = "The simulated engine as a separate process.",
        subcommands = SimCommand.Serve.class, mixinStandardHelpOptions = true)
public final class SimCommand {

    @Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Serves MODEL with the simulated engine until stopped (SIGTERM, Ctrl-C). Engine flags after MODEL are read in the --dialect's spelling, as vllm serve or SGLang reads them.",
            footerHeading = "%nExamples:%n",
            footer = {"  java -cp benchmarks.jar io.servebench.runner.Main sim serve Qwen/Qwen3.5-9B --port 8000 --max-num-seqs 128",
                    "  java -jar benchmarks.jar sim serve Qwen/Qwen3.5-9B --port 30000 --dialect sglang --context-length 32768"})
    static final class Serve implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "MODEL", description = "The model name to serve.")
        String model;

        @Option(names = "--port", description = "Port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
        int port = 8000;

        @Option(names = "--dialect", description = "Flag spelling: vllm, sglang or sim (default: ${DEFAULT-VALUE}).")
        String dialect = "vllm";

        @Option(names = "--seed", description = "Seed of output lengths and speculative acceptance (default: ${DEFAULT-VALUE}).")
        long seed = 42;

        @Unmatched
        List<String> engineFlags = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            SimSettings settings = SimSettings.fromFlags(dialect, model, joinValues(engineFlags));
            SimulatedEngine engine = SimulatedEngine.start(settings, port, seed);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                engine.close();
                stopped.countDown();
            }, "sim-shutdown"));
            System.out.println("simulated engine serving " + model + " at " + engine.endpoint().baseUri()
                    + " (" + dialect + " flags" + (settings.ignoredFlags().isEmpty() ? "" : "; without effect: "
                    + String.join(" ", settings.ignoredFlags())) + ")");
            System.out.flush();
            stopped.await();
            return 0;
        }
    }

    /**
     * Engine flags as one string each: {@code --max-num-seqs 128} becomes {@code --max-num-seqs=128}, as a
     * shell's argument list gives them to {@code vllm serve}; {@code --a=b} and switches stay as they are.
     */
    static List<String> joinValues(List<String> args) {
        List<String> flags = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            boolean takesNext = arg.startsWith("-") && !arg.contains("=") && i + 1 < args.size()
                    && !args.get(i + 1).startsWith("--");
            if (takesNext) {
                flags.add(arg + "=" + args.get(++i));
            } else {
                flags.add(arg);
            }
        }
        return flags;
    }
}
