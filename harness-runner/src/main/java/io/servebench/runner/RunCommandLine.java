package io.servebench.runner;

import io.servebench.engine.EngineOptions;
import io.servebench.engine.Redaction;
import io.servebench.plan.EngineOverrides;
import io.servebench.reports.ReportLanguage;

/**
 * The command line that repeats a run, for its results: {@code java -jar benchmarks.jar} with every option that
 * differs from its default, secrets masked and an API key named by its variable only.
 */
final class RunCommandLine {

    private RunCommandLine() {
    }

    static String of(RunOptions options) {
        StringBuilder sb = new StringBuilder("java -jar benchmarks.jar");
        options.includes().forEach(i -> sb.append(' ').append(i));
        options.overrides().forEach((k, v) -> sb.append(" -p ").append(k).append('=').append(String.join(",", v)));
        if (options.repetitions() > 1) {
            sb.append(" -r ").append(options.repetitions());
        }
        if (options.slo().stated()) {
            sb.append(" --slo ").append(options.slo());
        }
        switch (options.engines().simulate()) {
            case IN_PROCESS -> sb.append(" --simulate");
            case PROCESS -> sb.append(" --simulate=process");
            case VIRTUAL -> sb.append(" --simulate=virtual");
            case OFF -> {
                // the studies' own engines: nothing to add
            }
        }
        if (options.simulate() && !options.engines().simulatedGpu().equals(EngineOptions.DEFAULT_SIMULATED_GPU)) {
            sb.append(" --simulate-gpu ").append(options.engines().simulatedGpu());
        }
        if (options.freshServer()) {
            sb.append(" --fresh-server");
        }
        EngineOverrides engine = options.engineOverrides();
        if (!engine.executable().isEmpty()) {
            sb.append(" --engine-exe ").append(engine.executable());
        }
        Redaction.args(engine.env()).forEach(e -> sb.append(" --engine-env ").append(e));
        if (!engine.workdir().isEmpty()) {
            sb.append(" --engine-workdir ").append(engine.workdir());
        }
        if (!engine.url().isEmpty()) {
            sb.append(" --engine-url ").append(engine.url());
        }
        // the variable's name only: its value is a secret
        if (options.client().apiKeyEnv() != null) {
            sb.append(" --api-key-env ").append(options.client().apiKeyEnv());
        }
        if (!options.client().connectTimeout().equals(ClientOptions.DEFAULTS.connectTimeout())) {
            sb.append(" --connect-timeout ").append(options.client().connectTimeout().toMillis() / 1000.0);
        }
        if (!options.client().requestTimeout().equals(ClientOptions.DEFAULTS.requestTimeout())) {
            sb.append(" --request-timeout ").append(options.client().requestTimeout().toMillis() / 1000.0);
        }
        options.jmhPrimary().forEach(m -> sb.append(" --jmh-primary ").append(m));
        if (options.quick()) {
            sb.append(" --quick");
        }
        if (options.language() != ReportLanguage.EN) {
            sb.append(" --lang ").append(options.language().tag());
        }
        return sb.toString();
    }
}
