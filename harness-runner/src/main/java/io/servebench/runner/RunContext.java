package io.servebench.runner;

import io.servebench.engine.EngineOptions;
import io.servebench.metrics.PrometheusScraper;
import io.servebench.sim.SimTokenizer;
import io.servebench.workload.Dataset;
import io.servebench.workload.Datasets;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What every part of one run shares: its options, its console, the API key read from the environment, the
 * datasets read so far and the scraper of server-side metrics.
 */
final class RunContext {

    private final RunOptions options;
    private final PrintWriter out;
    private final String apiKey;
    private final Map<String, Dataset> datasets = new HashMap<>();
    private final PrometheusScraper scraper = new PrometheusScraper();

    /**
     * Reads the run's datasets and its API key, so that a missing file or variable, a mistake on the command line,
     * is reported before any engine starts.
     *
     * @param datasets    the datasets the run's workloads name
     * @param environment looks up environment variables (the API key's)
     * @throws RunnerException when a dataset cannot be read or {@code --api-key-env} names a variable that is not set
     */
    RunContext(RunOptions options, PrintWriter out, List<String> datasets, UnaryOperator<String> environment) {
        this.options = options;
        this.out = out;
        datasets.forEach(this::dataset);
        this.apiKey = apiKey(options.client(), environment);
    }

    RunOptions options() {
        return options;
    }

    PrintWriter out() {
        return out;
    }

    /** The bearer token requests carry, {@code null} for none; never printed or written. */
    String apiKey() {
        return apiKey;
    }

    /** How engines are started, with the API key, so that the readiness wait is let in too. */
    EngineOptions engines() {
        return options.engines().withApiKey(apiKey);
    }

    PrometheusScraper scraper() {
        return scraper;
    }

    /**
     * The dataset a workload names, read once per run; prompt lengths are counted as the simulated engine counts
     * them.
     *
     * @throws RunnerException when the dataset is missing or cannot be read
     */
    Dataset dataset(String spec) {
        try {
            return datasets.computeIfAbsent(spec, s -> Datasets.resolve(s, new SimTokenizer()::count));
        } catch (IllegalArgumentException e) {
            throw new RunnerException(e.getMessage());
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
            throw new RunnerException("--api-key-env " + variable + ": the environment variable " + variable
                    + " is not set or empty; expected it to hold the API key");
        }
        return key.strip();
    }
}
