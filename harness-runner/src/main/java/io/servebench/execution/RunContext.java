package io.servebench.execution;

import io.servebench.engine.kind.EngineKind;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.EngineParams;
import io.servebench.load.LoadWorkers;
import io.servebench.engine.RunningEngine;
import io.servebench.load.Interruption;
import io.servebench.metrics.PrometheusScraper;
import io.servebench.metrics.gpu.GpuTelemetry;
import io.servebench.workload.SimTokenizer;
import io.servebench.workload.Dataset;
import io.servebench.workload.Datasets;
import io.servebench.load.ServerTokens;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

/**
 * What every part of one run shares: its options, its console, the API key read from the environment, the
 * datasets read so far and the scraper of server-side metrics.
 */
public final class RunContext {

    private final ExecutionParams params;
    private final PrintWriter out;
    private final String apiKey;
    /** {@link io.servebench.flags.EngineFlags#ADMIN_API_KEY_ENV}'s value, {@code null} for none; never printed or written. */
    private final String adminApiKey;
    private final Map<String, Dataset> datasets = new HashMap<>();
    private final Map<String, Counted> counted = new HashMap<>();
    private final PrometheusScraper scraper = new PrometheusScraper();
    private final Interruption interruption;
    /** Chosen at the first load on a real engine: a run in virtual time never probes the machine's GPUs. */
    private GpuTelemetry telemetry;

    /**
     * Reads the run's datasets and its API key, so that a missing file or variable, a mistake on the command line,
     * is reported before any engine starts.
     *
     * @param datasets    the datasets the run's workloads name
     * @param environment looks up environment variables (the API key's)
     * @throws ExecutionException when a dataset cannot be read or {@code --api-key-env} names a variable that is not set
     */
    public RunContext(ExecutionParams params, PrintWriter out, List<String> datasets, UnaryOperator<String> environment) {
        this(params, out, datasets, environment, new Interruption());
    }

    /**
     * As {@link #RunContext(ExecutionParams, PrintWriter, List, UnaryOperator)}, stopped by {@code interruption}: no load
     * starts once it is set, and the one in flight stops at once, keeping what it measured.
     */
    public RunContext(ExecutionParams params, PrintWriter out, List<String> datasets, UnaryOperator<String> environment,
                      Interruption interruption) {
        this.params = params;
        this.out = out;
        this.interruption = interruption;
        datasets.forEach(this::dataset);
        this.apiKey = apiKey(params.client(), environment);
        String admin = environment.apply(io.servebench.flags.EngineFlags.ADMIN_API_KEY_ENV);
        this.adminApiKey = admin == null || admin.isBlank() ? null : admin.strip();
    }

    public ExecutionParams params() {
        return params;
    }

    PrintWriter out() {
        return out;
    }

    /** The run's stop request: set by Ctrl-C or SIGTERM (the command line), or a program's {@code Runner#interrupt}. */
    Interruption interruption() {
        return interruption;
    }

    /**
     * The machine's GPU telemetry as {@code --gpu-telemetry} chose it, probed once; a machine without one says so once.
     */
    synchronized GpuTelemetry telemetry() {
        if (telemetry == null) {
            telemetry = GpuTelemetry.choose(params.telemetry());
            telemetry.absence().filter(why -> !params.telemetry().source().equals("off")).ifPresent(why -> {
                out.println(why + "; the results carry no GPU figures");
                out.flush();
            });
            telemetry.note().ifPresent(note -> {
                out.println("note: " + note);
                out.flush();
            });
        }
        return telemetry;
    }

    /** The bearer token requests carry, {@code null} for none; never printed or written. */
    String apiKey() {
        return apiKey;
    }

    /**
     * How engines are started, with the API key, so that the readiness wait is let in too; listening on every interface
     * where the loads' workers run on other nodes of a SLURM allocation and reach them over the network.
     */
    EngineParams engines() {
        EngineParams engines = params.engines().withKeys(apiKey, adminApiKey);
        return params.client().loadWorkers() > 1 && LoadWorkers.Placement.of(System.getenv()).otherMachines()
                ? engines.listeningOn(EngineParams.ALL_INTERFACES) : engines;
    }

    PrometheusScraper scraper() {
        return scraper;
    }

    /** How long a dataset's reading goes on before a run that is not verbose says it is still reading. */
    static final java.time.Duration SLOW_READ = java.time.Duration.ofSeconds(5);

    /**
     * The dataset a workload names, read once per run; prompt lengths are counted as the simulated engine counts
     * them.
     *
     * @throws ExecutionException           when the dataset is missing or cannot be read
     * @throws java.util.concurrent.CancellationException when the run is interrupted while the dataset is built
     */
    Dataset dataset(String spec) {
        try {
            return datasets.computeIfAbsent(spec, s -> {
                // a set of long prompts, or a large file counted by a real tokenizer, can take minutes: verbose says so
                // as each read begins, and otherwise a read still going after a few seconds does
                if (params.verbose()) {
                    out.printf("Reading dataset %s%n", s);
                    return Datasets.resolve(s, new SimTokenizer()::count, interruption::interrupted);
                }
                try (SlowStep slow = SlowStep.after(SLOW_READ, out, "Reading dataset " + s + ": still at it after "
                        + SLOW_READ.toSeconds() + " s (large files and long prompts take a while)")) {
                    Dataset read = Datasets.resolve(s, new SimTokenizer()::count, interruption::interrupted);
                    slow.ended(String.format(java.util.Locale.ROOT, "Read dataset %s in %.1f s", s,
                            slow.elapsedNs() / 1e9));
                    return read;
                }
            });
        } catch (IllegalArgumentException e) {
            throw new ExecutionException(e.getMessage());
        }
    }

    /**
     * A dataset and what counted its prompts' tokens (and built its prompts to length), for the reports.
     *
     * @param counter what counted them, as the reports say it ({@code the engine's /tokenize})
     */
    record Counted(Dataset dataset, String counter) {
    }

    /**
     * The dataset a workload names, its prompts counted by the model's real tokenizer where there is one: the
     * {@code tokenizer=PATH} the spec names, else the running engine's {@code /tokenize}, else the estimate (the
     * simulated engine's word-and-punctuation tokenizer, which is exact only for the simulated engine, and so is what
     * a simulated engine is asked through: the same counts as its {@code /tokenize}, without a call per text). Built once
     * per spec, on the first server that asks, so that every trial of the run sends the same requests.
     *
     * @throws ExecutionException           when the dataset cannot be read
     * @throws java.util.concurrent.CancellationException when the run is interrupted while the dataset is built
     */
    Counted dataset(String spec, RunningEngine engine, EngineKind kind) {
        Counted known = counted.get(spec);
        if (known != null) {
            return known;
        }
        Optional<Path> file = Datasets.tokenizerFile(spec);
        Optional<String> tokenize = kind.tokenizePath();
        Counted made;
        if (file.isPresent()) {
            made = new Counted(dataset(spec), "the tokenizer " + file.get());
        } else if (engine.virtual().isPresent() || params.simulate() || kind == EngineKinds.SIM) {
            // the tokenizer the simulated engine's /tokenize answers with, without a call per text
            made = new Counted(dataset(spec), "the simulated engine's own tokenizer");
        } else if (tokenize.isPresent()) {
            made = served(spec, engine.endpoint().baseUri().resolve(tokenize.get()), engine.endpoint().model());
        } else {
            made = new Counted(dataset(spec), ESTIMATE);
        }
        counted.put(spec, made);
        return made;
    }

    private static final String ESTIMATE = "an estimate (words and punctuation; give the dataset tokenizer=PATH of the"
            + " model's tokenizer.json for exact counts)";

    /** The dataset built with the engine's own counts; the estimate's, with a note, when it does not answer. */
    private Counted served(String spec, URI tokenize, String model) {
        ToIntFunction<String> server = ServerTokens.counter(tokenize, model, apiKey);
        try {
            server.applyAsInt("hello");
        } catch (IllegalStateException e) {
            out.printf("  note: %s; prompt lengths of %s are an estimate%n", e.getMessage(), spec);
            return new Counted(dataset(spec), ESTIMATE);
        }
        try {
            return new Counted(Datasets.resolve(spec, server, interruption::interrupted), "the engine's " + tokenize.getPath());
        } catch (IllegalArgumentException e) {
            throw new ExecutionException(e.getMessage());
        }
    }

    /** The API key named by {@code --api-key-env}, {@code null} when none is. */
    private static String apiKey(ClientOptions client, UnaryOperator<String> environment) {
        String variable = client.apiKeyEnv();
        if (variable == null) {
            return null;
        }
        String key = environment.apply(variable);
        if (key == null || key.isBlank()) {
            throw new ExecutionException("--api-key-env " + variable + ": the environment variable " + variable
                    + " is not set or empty; expected it to hold the API key");
        }
        return key.strip();
    }
}
