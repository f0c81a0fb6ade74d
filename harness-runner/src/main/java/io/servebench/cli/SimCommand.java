package io.servebench.cli;

import io.servebench.sim.GpuProfile;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

import java.util.ArrayList;
import java.util.List;
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
            footer = {"  java -cp benchmarks.jar io.servebench.sim.SimServer Qwen/Qwen3.5-9B --port 8000 --max-num-seqs 128",
                    "  java -jar benchmarks.jar sim serve Qwen/Qwen3.5-9B --port 30000 --dialect sglang --context-length 32768"})
    static final class Serve implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "MODEL", description = "The model name to serve.")
        String model;

        @Option(names = "--port", description = "Port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
        int port = SimServer.Options.DEFAULT_PORT;

        @Option(names = "--dialect", description = "Flag spelling: vllm, sglang or sim (default: ${DEFAULT-VALUE}).")
        String dialect = SimDialect.VLLM.toString();

        @Option(names = "--seed", description = "Seed of output lengths and speculative acceptance (default: ${DEFAULT-VALUE}).")
        long seed = SimServer.Options.DEFAULT_SEED;

        @Option(names = "--gpu", paramLabel = "ID", description = "The GPU it imitates, per tensor-parallel rank: h100, h200,"
                + " a100, l40s or b200 (default: ${DEFAULT-VALUE}); datasheet figures, see the README.")
        String gpu = "h100";

        @Unmatched
        List<String> engineFlags = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            SimServer.serve(new SimServer.Options(model, port, SimDialect.of(dialect), seed, SimServer.joinValues(engineFlags),
                    GpuProfile.named(gpu)),
                    System.out);
            return 0;
        }
    }
}
