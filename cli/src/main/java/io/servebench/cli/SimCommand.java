package io.servebench.cli;

import io.servebench.calibration.Calibration;
import io.servebench.calibration.CalibrationReport;
import io.servebench.calibration.PublicResult;
import io.servebench.calibration.Validation;
import io.servebench.calibration.ValidationReport;
import io.servebench.calibration.ReferenceBlock;
import io.servebench.sim.GpuProfile;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimServer;
import io.servebench.workload.SimTokenizer;
import io.servebench.workload.Dataset;
import io.servebench.workload.Datasets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code sim serve}: the simulated engine as a process of its own, started like {@code vllm serve},
 * so the whole process path (launch, readiness, teardown) runs on machines without a GPU; {@code sim calibrate}:
 * its engine profiles fitted on the reference study and checked on held-out blocks; {@code sim validate}: the twin
 * against published results it was never fitted to.
 */
@Command(name = "sim", description = "The simulated engine: as a separate process, and calibrated against the reference study.",
        subcommands = {SimCommand.Serve.class, SimCommand.Calibrate.class, SimCommand.Validate.class},
        mixinStandardHelpOptions = true)
public final class SimCommand {

    @Command(name = "calibrate", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Fits the simulated engine's engine-profile constants (per-sequence host time and front end of vLLM"
                    + " and SGLang, MTP acceptance) on the reference study's blocks at the fit rate, then predicts every"
                    + " block in virtual time without refitting and prints both beside the reference, as markdown.",
            footerHeading = "%nExamples:%n",
            footer = {"  java -jar benchmarks.jar sim calibrate                 fit on the bundled reference, print the table",
                    "  java -jar benchmarks.jar sim calibrate --no-fit        predict with the constants the engine ships",
                    "  java -jar benchmarks.jar sim calibrate --no-fit --write-evidence simulator/src/main/resources/io/servebench/sim/twin-calibration.json",
                    "  java -jar benchmarks.jar sim calibrate --reference my-results.json --dataset sharegpt:ShareGPT_V3.json"})
    static final class Calibrate implements Callable<Integer> {

        /** The bundled reference study's set-up, each option's default. */
        private static final String REFERENCE_MODEL = "Qwen/Qwen3.5-9B";
        private static final String REFERENCE_GPU = "h100";
        private static final double REFERENCE_FIT_RATE = 8;
        private static final long REFERENCE_SEED = 42;

        @Option(names = "--reference", paramLabel = "FILE", description = "Results in seed-study/results.json's format"
                + " (default: the reference study bundled with ServeBench).")
        Path reference;

        @Option(names = "--dataset", paramLabel = "SPEC", description = "The prompts and output lengths: sharegpt:PATH or"
                + " synthetic-sharegpt (default: ${DEFAULT-VALUE}).")
        String dataset = Datasets.SYNTHETIC_SHAREGPT;

        @Option(names = "--model", description = "The served model (default: ${DEFAULT-VALUE}).")
        String model = REFERENCE_MODEL;

        @Option(names = "--gpu", paramLabel = "ID", description = "The reference's GPU (default: ${DEFAULT-VALUE}).")
        String gpu = REFERENCE_GPU;

        @Option(names = "--fit-rate", paramLabel = "REQ_PER_S", description = "The rate whose blocks the fit uses; the"
                + " others are held out (default: ${DEFAULT-VALUE}).")
        double fitRate = REFERENCE_FIT_RATE;

        @Option(names = "--seed", description = "Seed of the dataset and the simulated engine (default: ${DEFAULT-VALUE}).")
        long seed = REFERENCE_SEED;

        @Option(names = "--no-fit", description = "Predict with the constants the simulated engine ships, without fitting.")
        boolean noFit;

        @Option(names = "--write-evidence", paramLabel = "FILE", description = "With --no-fit and the bundled reference as"
                + " it comes: also write what the held-out blocks say of the twin on the reference's set-up as JSON to"
                + " FILE, the clause every simulated block of that kind states beside its published bar, bundled as"
                + " simulator/src/main/resources/io/servebench/sim/twin-calibration.json.")
        Path writeEvidence;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            // refused before the reference and its dataset are read
            if (writeEvidence != null && (!noFit || reference != null || !model.equals(REFERENCE_MODEL)
                    || !gpu.equals(REFERENCE_GPU) || fitRate != REFERENCE_FIT_RATE || seed != REFERENCE_SEED
                    || !dataset.equals(Datasets.SYNTHETIC_SHAREGPT))) {
                throw new ParameterException(spec.commandLine(), "--write-evidence writes what the twin as it ships shows"
                        + " on the bundled reference: give it with --no-fit and none of --reference, --model, --gpu,"
                        + " --fit-rate, --seed, --dataset");
            }
            PrintWriter out = spec.commandLine().getOut();
            List<ReferenceBlock> blocks;
            Dataset data;
            Calibration calibration;
            try {
                blocks = reference == null ? ReferenceBlock.bundled()
                        : ReferenceBlock.read(reference);
                data = Datasets.resolve(dataset, new SimTokenizer()::count);
                calibration = new Calibration(blocks, model, data, seed, GpuProfile.named(gpu),
                        fitRate);
            } catch (IllegalArgumentException | IOException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            long t0 = System.nanoTime();
            Calibration.Constants current = Calibration.Constants.current();
            Calibration.Constants fitted = current;
            List<Calibration.BlockOutcome> outcome;
            if (noFit) {
                outcome = calibration.predict(current);
            } else {
                Calibration.Outcome o = calibration.run(current);
                fitted = o.fitted();
                outcome = o.blocks();
            }
            if (writeEvidence != null) {
                new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                        .writeValue(writeEvidence.toFile(), calibration.evidence(outcome));
                out.println("evidence: " + writeEvidence);
            }
            CalibrationReport.write(out, current, fitted, outcome);
            out.printf(Locale.ROOT, "%nHeld-out blocks within every target: %s.%n",
                    CalibrationReport.withinTargets(outcome) ? "yes" : "no (see the table)");
            out.printf(Locale.ROOT, "%d reference blocks, %s, seed %d, %.1f s%n", blocks.size(), dataset, seed,
                    (System.nanoTime() - t0) / 1e9);
            return 0;
        }
    }

    @Command(name = "validate", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Runs every published serving result bundled with ServeBench (engine, model, GPU, tensor"
                    + " parallelism and load as published, each with its source) on the simulated engine in virtual"
                    + " time, and prints the twin's figures beside the published ones, with the error, as markdown;"
                    + " then which engine each side finds faster where both were published on one set-up. Nothing is"
                    + " fitted to these results.",
            footerHeading = "%nExamples:%n",
            footer = {"  java -jar benchmarks.jar sim validate                 every bundled case",
                    "  java -jar benchmarks.jar sim validate --case qwen3.5   the cases whose id contains qwen3.5",
                    "  java -jar benchmarks.jar sim validate --case qwen3-14b-h100 --gpu h100-pcie",
                    "                                  the same cases on the H100 PCIe: does the source's \"H100\" read"
                            + " like one?",
                    "  java -jar benchmarks.jar sim validate --case vllm-qwen3-14b-h100 --server-flag=--max-num-seqs=256",
                    "                                  the same vLLM cases at the A100's default batch limit"})
    static final class Validate implements Callable<Integer> {

        @Option(names = "--case", paramLabel = "TEXT", description = "Only the cases whose id contains TEXT.")
        String only;

        @Option(names = "--seed", description = "Seed of each case's dataset and engine (default: ${DEFAULT-VALUE}).")
        long seed = 42;

        @Option(names = "--gpu", paramLabel = "ID", description = "Run every case on this GPU instead of the one its"
                + " source names (h100, h100-pcie, h200, h20, a100, l40s, b200): a diagnostic of a source's hardware,"
                + " never evidence; not with --write-evidence.")
        String gpu;

        @Option(names = "--server-flag", paramLabel = "FLAG", description = "Add FLAG (--name=value, in the case's"
                + " engine's spelling) to every case's engine flags, e.g. --server-flag=--max-num-seqs=256: a diagnostic"
                + " of what a setting the source does not print would change, never evidence; not with"
                + " --write-evidence. Repeatable.")
        List<String> serverFlags = new java.util.ArrayList<>();

        @Option(names = "--write-evidence", paramLabel = "FILE", description = "Also write the twin's evidence per engine,"
                + " GPU and architecture as JSON to FILE: the error bar every simulated block states, bundled as"
                + " simulator/src/main/resources/io/servebench/sim/twin-evidence.json (run with every case).")
        java.nio.file.Path writeEvidence;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws java.io.IOException {
            PrintWriter out = spec.commandLine().getOut();
            List<PublicResult> cases = PublicResult.bundled().stream()
                    .filter(c -> only == null || c.id().contains(only)).toList();
            if (cases.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--case " + only + ": no bundled case's id contains it;"
                        + " the ids are " + String.join(", ", PublicResult.bundled().stream().map(PublicResult::id)
                        .toList()));
            }
            Optional<GpuProfile> onGpu = Optional.empty();
            if (gpu != null) {
                refuseEvidence("--gpu", gpu, "on a GPU its source does not name");
                try {
                    onGpu = Optional.of(GpuProfile.named(gpu));
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), "--gpu: " + e.getMessage());
                }
                diagnostic(out, "on the twin's " + onGpu.get().name() + " (--gpu " + gpu + "), not on the GPU its source"
                        + " names");
            }
            if (!serverFlags.isEmpty()) {
                String flags = String.join(" ", serverFlags);
                refuseEvidence("--server-flag", flags, "with flags its source does not print");
                diagnostic(out, "with " + flags + " beside its own engine flags");
            }
            long t0 = System.nanoTime();
            List<Validation.Outcome> outcomes = new Validation(seed, onGpu, serverFlags).run(cases);
            ValidationReport.write(out, outcomes);
            if (writeEvidence != null) {
                new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                        .writeValue(writeEvidence.toFile(), Validation.evidence(outcomes));
                out.println("evidence: " + writeEvidence);
            }
            out.printf(Locale.ROOT, "%d cases, seed %d, %.1f s%n", cases.size(), seed, (System.nanoTime() - t0) / 1e9);
            return 0;
        }

        /** Refuses {@code --write-evidence} beside a diagnostic option: its figures are no evidence for the twin. */
        private void refuseEvidence(String option, String value, String how) {
            if (writeEvidence != null) {
                throw new ParameterException(spec.commandLine(), option + " " + value + " runs every case " + how
                        + ", which is no evidence for the twin: drop --write-evidence or " + option);
            }
        }

        /** Says, before any figure, that every case runs {@code how}, so that its figures are a diagnostic. */
        private static void diagnostic(PrintWriter out, String how) {
            out.printf(Locale.ROOT, "Diagnostic: every case runs %s; these figures are not the twin's evidence.%n%n", how);
        }
    }

    @Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Serves MODEL with the simulated engine until stopped (SIGTERM, Ctrl-C). Engine flags after MODEL are read in the --dialect's spelling, as vllm serve or SGLang reads them.",
            footerHeading = "%nExamples:%n",
            footer = {"  java -cp benchmarks.jar io.servebench.sim.SimServer Qwen/Qwen3.5-9B --port 8000 --max-num-seqs 128",
                    "  java -jar benchmarks.jar sim serve Qwen/Qwen3.5-9B --port 30000 --dialect sglang --context-length 32768"})
    static final class Serve implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "MODEL", description = "The model name to serve.")
        String model;

        @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 in a container,"
                + " whose published port reaches every interface but the loopback).")
        String host = SimServer.Options.DEFAULT_HOST;

        @Option(names = "--port", description = "Port (default: ${DEFAULT-VALUE}).")
        int port = SimServer.Options.DEFAULT_PORT;

        @Option(names = "--dialect", description = "Flag spelling: vllm, sglang or sim (default: ${DEFAULT-VALUE}).")
        String dialect = SimDialect.VLLM.toString();

        @Option(names = "--seed", description = "Seed of output lengths and speculative acceptance (default: ${DEFAULT-VALUE}).")
        long seed = SimServer.Options.DEFAULT_SEED;

        @Option(names = "--gpu", paramLabel = "ID", completionCandidates = Gpus.class, description = "The GPU it imitates, per"
                + " tensor-parallel rank, one of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); datasheet figures, see"
                + " docs/simulated-engine.md.")
        String gpu = "h100";

        @Unmatched
        List<String> engineFlags = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            SimServer.serve(new SimServer.Options(model, host, port, SimDialect.of(dialect), seed, SimServer.joinValues(engineFlags),
                    GpuProfile.named(gpu)),
                    System.out);
            return 0;
        }
    }

    /** The GPUs the simulated engine imitates, by id, for the options that name one: {@link GpuProfile#catalogue()}'s. */
    static final class Gpus implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return GpuProfile.catalogue().keySet().iterator();
        }
    }
}
