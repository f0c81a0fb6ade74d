package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.execution.ClientOptions;
import io.servebench.execution.slurm.SlurmParams;
import io.servebench.measure.SloParams;
import io.servebench.metrics.gpu.TelemetryParams;
import io.servebench.plan.EngineOverrides;
import io.servebench.reports.ReportLanguage;
import io.servebench.sim.GpuProfile;
import io.servebench.study.AdHocStudy;
import io.servebench.workload.Datasets;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How to run a selection of benchmarks: what the user asked for, on the command line or through
 * {@link #builder()}, immutable; an option left unset is empty here, and the {@link Runner} resolves it to its
 * default once ({@code RunParams}). JMH's {@code Options} and {@code OptionsBuilder} in one.
 *
 * <pre>{@code
 * RunOutcome outcome = new Runner(RunOptions.builder()
 *         .include(QuickStart.class)
 *         .param("rate", "4", "8")
 *         .simulate(EngineParams.Simulate.IN_PROCESS)
 *         .outputDir(Path.of("results/quick-start"))
 *         .build()).run();
 * }</pre>
 *
 * @param includes        regular expressions, any of which must be found in {@code Class.variant}; empty selects all
 * @param studies         study classes (binary names) to run even when no benchmark list names them (a class the IDE
 *                        compiled without the annotation processor, one given to {@link Builder#include(Class)})
 * @param overrides       {@code -p name=v1,v2} values by name
 * @param trials          the keys of the only trials of the plan to run ({@code --trial}; a trial's id without its
 *                        running number, {@code vllm-e064484c-constant-16}, the same in every plan of its study);
 *                        empty runs them all
 * @param repetitions     independent runs of each trial (JMH's forks); unset: 1
 * @param outputDir       the run folder; unset: {@code results/yyyyMMdd-HHmmss} of the time the run starts
 * @param simulate        whether and how the simulated engine stands in for the studies' engines
 * @param simulatedGpu    the GPU the simulated engine imitates; unset: {@link EngineParams#DEFAULT_SIMULATED_GPU}
 * @param simulatedModelConfig the config.json of the model the simulated engine stands in for, when it does not know it
 * @param simulatedAcceptance the draft acceptance the simulated engine gives speculative decoding, one rate per draft
 *                        position ({@code --sim-acceptance-rate}); empty for the draft method's default
 * @param readyTimeout    how long an engine may take to become ready; unset: {@link EngineParams#DEFAULT_READY_TIMEOUT}
 * @param stopGrace       how long an engine gets to exit after SIGTERM; unset: {@link EngineParams#DEFAULT_GRACE}
 * @param containerRuntime {@code docker} or {@code podman}, for studies that name an image; unset: docker
 * @param quick           shorten every trial to about {@link io.servebench.execution.ExecutionParams#QUICK_SECONDS} seconds of load
 * @param seed            seeds request order, arrival times and the simulated engine; unset: 42
 * @param freshServer     start a server for every trial instead of reusing one across trials of one configuration
 * @param settle          pause between two trials on one server, after its prefix cache was reset; unset: 1 s
 * @param slice           the length of the time slices a long load reports its figures in; unset: 60 s
 * @param engineOverrides the command line's engine executable, environment, working directory and URL
 * @param client          the HTTP client's API key variable and timeouts
 * @param language        the language of summary.md and report.html; unset: English
 * @param slo             SLOs from the command line ({@code --slo}), laid over each variant's {@code @Slo} bound by bound
 * @param progress        whether each trial's progress is shown (a bar on a terminal, a line when it ends)
 * @param verbose         whether the console also shows each load's start and its time slices ({@code -v})
 * @param jmhPrimary      more metrics to write a JMH file each with as its primary metric ({@code ttft.p99} gives
 *                        {@code results-ttft.p99.json}), for a CI tracker's second series
 * @param jmhParamsInName whether the JMH files put each entry's params into its benchmark name (and give it none), for
 *                        trackers that key a series by the name alone
 * @param resume          continue the run whose journal is in {@code outputDir}: the trials it finished are not run
 *                        again, and the reports cover them and the rest
 * @param capacity        search each selected variant's capacity under its SLOs instead of running the planned
 *                        trials ({@code --capacity}); empty to run them
 * @param slurm           run the server configurations as SLURM jobs ({@code --executor slurm}); empty to run them
 *                        here, one after the other
 * @param telemetry       how the engines' GPUs are sampled ({@code --gpu-telemetry}, {@code --gpu-interval},
 *                        {@code --gpus}, {@code --gpu-cost})
 * @param timelineGap     the shortest gap between token events the request timeline marks ({@code --timeline-gap});
 *                        unset: 100 ms
 * @param maxFailedShare  the largest share of a repetition's measured requests that may fail before its trial fails
 *                        ({@code --max-failed-share}); unset: {@link io.servebench.execution.ExecutionParams#DEFAULT_MAX_FAILED_SHARE}
 * @param adHoc           a study written on the command line ({@code run}), run instead of classes; empty to run
 *                        classes
 */
public record RunOptions(List<String> includes, List<String> studies, Map<String, List<String>> overrides,
                         List<String> trials,
                         Optional<Integer> repetitions, Optional<Path> outputDir, EngineParams.Simulate simulate,
                         Optional<String> simulatedGpu, Optional<Path> simulatedModelConfig, List<Double> simulatedAcceptance,
                         Optional<Duration> readyTimeout, Optional<Duration> stopGrace, Optional<String> containerRuntime, boolean quick, Optional<Long> seed, boolean freshServer,
                         Optional<Duration> settle, Optional<Duration> slice, EngineOverrides engineOverrides,
                         ClientOptions client, Optional<ReportLanguage> language, SloParams slo, boolean progress,
                         boolean verbose,
                         List<String> jmhPrimary, boolean jmhParamsInName, boolean resume,
                         Optional<CapacityOptions> capacity, Optional<SlurmParams> slurm, TelemetryParams telemetry,
                         Optional<Duration> timelineGap, Optional<Double> maxFailedShare, Optional<AdHocStudy> adHoc) {

    public RunOptions {
        includes = List.copyOf(includes);
        studies = List.copyOf(studies);
        // in the order given, as the recorded command line repeats them
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        trials = List.copyOf(trials);
        Objects.requireNonNull(outputDir, "outputDir");
        Objects.requireNonNull(simulate, "simulate");
        // an unknown GPU is a mistake on the command line: say so before anything starts
        simulatedGpu.ifPresent(GpuProfile::named);
        Objects.requireNonNull(simulatedModelConfig, "simulatedModelConfig");
        simulatedAcceptance = List.copyOf(simulatedAcceptance);
        Objects.requireNonNull(readyTimeout, "readyTimeout");
        Objects.requireNonNull(stopGrace, "stopGrace");
        Objects.requireNonNull(containerRuntime, "containerRuntime");
        Objects.requireNonNull(seed, "seed");
        Objects.requireNonNull(settle, "settle");
        timelineGap.filter(d -> d.isNegative() || d.isZero()).ifPresent(d -> {
            throw new IllegalArgumentException("--timeline-gap " + d.toMillis() + ": expected a positive number of ms, "
                    + "e.g. --timeline-gap 100");
        });
        slice.filter(d -> d.isNegative() || d.isZero()).ifPresent(d -> {
            throw new IllegalArgumentException("--slice " + d.toMillis() / 1000.0 + ": expected a positive number of"
                    + " seconds, e.g. --slice 60");
        });
        Objects.requireNonNull(engineOverrides, "engineOverrides");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(slo, "slo");
        repetitions.filter(r -> r < 1).ifPresent(r -> {
            throw new IllegalArgumentException("-r " + r + ": expected at least 1 repetition");
        });
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(slurm, "slurm");
        jmhPrimary = List.copyOf(jmhPrimary);
        // a name no result could have is a mistake on the command line: say so before any engine starts
        jmhPrimary.forEach(io.servebench.results.jmh.JmhJsonWriter::new);
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(telemetry, "telemetry");
        Objects.requireNonNull(adHoc, "adHoc");
        if (adHoc.isPresent() && (!includes.isEmpty() || !studies.isEmpty())) {
            throw new IllegalArgumentException("a study written on the command line runs alone: no class and no pattern"
                    + " beside it, got " + includes + studies);
        }
        maxFailedShare.filter(s -> !(s >= 0 && s <= 1)).ifPresent(s -> {
            throw new IllegalArgumentException("--max-failed-share " + s + ": expected a share of requests from 0 to 1,"
                    + " e.g. --max-failed-share 0.05 (0 fails a trial on its first failed request, 1 only when all fail)");
        });
    }

    /** Whether the run searches capacities under SLOs ({@code --capacity}) instead of running the planned trials. */
    public boolean capacitySearch() {
        return capacity.isPresent();
    }

    /**
     * The values a command line's {@code -p name=V1,V2} (or the JUnit engine's {@code servebench.param.name}) gives,
     * for {@link Builder#param}: split at its commas, each stripped, except where one value may hold commas itself: a
     * dataset list is split where another dataset's kind starts ({@link Datasets#splitList}), and a load option whose
     * value holds commas ({@link LoadOption#holdsCommas()}: a JSON body, a weighted list) is one value.
     */
    public static List<String> paramValues(String name, String text) {
        if (WorkloadSetting.DATASET.key().equals(name)) {
            return Datasets.splitList(text);
        }
        if (LoadOption.byKey(name).filter(LoadOption::holdsCommas).isPresent()) {
            return List.of(text.strip());
        }
        return Arrays.stream(text.split(",")).map(String::strip).toList();
    }

    /** A builder with no option set: all benchmarks, the declared engines, every setting at its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link RunOptions} one option at a time, as JMH's {@code OptionsBuilder} does; each setter returns it. */
    public static final class Builder {
        private final List<String> includes = new ArrayList<>();
        private final List<String> studies = new ArrayList<>();
        private final Map<String, List<String>> overrides = new LinkedHashMap<>();
        private final List<String> trials = new ArrayList<>();
        private Integer repetitions;
        private Path outputDir;
        private EngineParams.Simulate simulate = EngineParams.Simulate.OFF;
        private SlurmParams slurm;
        private String simulatedGpu;
        private Path simulatedModelConfig;
        private List<Double> simulatedAcceptance = List.of();
        private Duration readyTimeout;
        private Duration stopGrace;
        private String containerRuntime;
        private boolean quick;
        private Long seed;
        private boolean freshServer;
        private Duration settle;
        private Duration slice;
        private Duration timelineGap;
        private EngineOverrides engineOverrides = EngineOverrides.NONE;
        private ClientOptions client = ClientOptions.DEFAULTS;
        private ReportLanguage language;
        private SloParams slo = SloParams.NONE;
        private boolean progress = true;
        private boolean verbose;
        private final List<String> jmhPrimary = new ArrayList<>();
        private boolean jmhParamsInName;
        private boolean resume;
        private CapacityOptions capacity;
        private TelemetryParams telemetry = TelemetryParams.DEFAULTS;
        private Double maxFailedShare;
        private AdHocStudy adHoc;

        private Builder() {
        }

        /** Runs the benchmarks whose {@code Class.variant} contains a match of {@code regex} (any of those given). */
        public Builder include(String regex) {
            includes.add(regex);
            return this;
        }

        /** Runs every variant of {@code study}, listed by the processor or not. */
        public Builder include(Class<?> study) {
            studies.add(study.getName());
            return include("^" + Pattern.quote(study.getName()) + "\\.[^.]+$");
        }

        /** Runs the variants of {@code study} named {@code variants}. */
        public Builder include(Class<?> study, String... variants) {
            studies.add(study.getName());
            Arrays.stream(variants).forEach(v -> include("^" + Pattern.quote(study.getName() + "." + v) + "$"));
            return this;
        }

        /** Expands over these values of a {@code @Param} or a workload setting, as {@code -p name=v1,v2}. */
        public Builder param(String name, String... values) {
            overrides.put(name, List.of(values));
            return this;
        }

        /**
         * Runs only the plan's trial with this key (one of several when called again): its id without the running
         * number, as {@code -l} lists it after the {@code tNN-}; an IDE re-running one trial's test asks for it so.
         */
        public Builder trial(String key) {
            trials.add(Objects.requireNonNull(key, "key"));
            return this;
        }

        public Builder repetitions(int repetitions) {
            this.repetitions = repetitions;
            return this;
        }

        public Builder outputDir(Path outputDir) {
            this.outputDir = outputDir;
            return this;
        }

        /** Whether and how the simulated engine stands in for the studies' engines. */
        public Builder simulate(EngineParams.Simulate simulate) {
            this.simulate = Objects.requireNonNull(simulate, "simulate");
            return this;
        }

        /** The config.json (or its folder) of the model the simulated engine stands in for, when it does not know it. */
        public Builder simulatedModelConfig(Path config) {
            this.simulatedModelConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * The draft acceptance the simulated engine gives speculative decoding, one rate in [0, 1] per draft position,
         * each given the earlier ones were accepted, the last for the positions after it.
         */
        public Builder simulatedAcceptance(List<Double> rates) {
            this.simulatedAcceptance = List.copyOf(rates);
            return this;
        }

        /**
         * The GPU the simulated engine imitates, per tensor-parallel rank: an id of {@code GpuProfile.catalogue()}
         * ({@code h100}, the default, {@code h200}, {@code a100}, {@code l40s}, {@code b200}); checked by {@link #build}.
         */
        public Builder simulatedGpu(String id) {
            this.simulatedGpu = Objects.requireNonNull(id, "id");
            return this;
        }

        public Builder readyTimeout(Duration readyTimeout) {
            this.readyTimeout = readyTimeout;
            return this;
        }

        public Builder stopGrace(Duration stopGrace) {
            this.stopGrace = stopGrace;
            return this;
        }

        /** {@code docker} or {@code podman}, for studies that name an image. */
        public Builder containerRuntime(String containerRuntime) {
            this.containerRuntime = containerRuntime;
            return this;
        }

        public Builder quick(boolean quick) {
            this.quick = quick;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Builder freshServer(boolean freshServer) {
            this.freshServer = freshServer;
            return this;
        }

        /** The shortest gap between token events the request timeline marks, as {@code --timeline-gap} sets it. */
        public Builder timelineGap(Duration newTimelineGap) {
            this.timelineGap = newTimelineGap;
            return this;
        }

        /** The time slices a long load reports its figures in, as {@code --slice} sets them. */
        public Builder slice(Duration newSlice) {
            this.slice = newSlice;
            return this;
        }

        public Builder settle(Duration settle) {
            this.settle = settle;
            return this;
        }

        /** The engine executable, environment, working directory and endpoint URL laid over every study's. */
        public Builder engineOverrides(EngineOverrides engineOverrides) {
            this.engineOverrides = Objects.requireNonNull(engineOverrides, "engineOverrides");
            return this;
        }

        /** The HTTP client's API key variable and timeouts. */
        public Builder client(ClientOptions client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        public Builder language(ReportLanguage language) {
            this.language = language;
            return this;
        }

        /** SLOs laid over every variant's {@code @Slo}, bound by bound. */
        public Builder slo(SloParams slo) {
            this.slo = slo;
            return this;
        }

        /** Whether the console also shows each load's start and its time slices ({@code -v}); off by default. */
        public Builder verbose(boolean verbose) {
            this.verbose = verbose;
            return this;
        }

        /** Whether each trial's progress is shown; off for a program or a test that only wants the results. */
        public Builder progress(boolean progress) {
            this.progress = progress;
            return this;
        }

        /** Writes {@code results-METRIC.json} with {@code metric} as the primary metric too, e.g. {@code ttft.p99}. */
        public Builder jmhPrimary(String metric) {
            jmhPrimary.add(metric);
            return this;
        }

        /** Puts each JMH entry's params into its benchmark name, as {@code --jmh-params-in-name} does. */
        public Builder jmhParamsInName(boolean inName) {
            this.jmhParamsInName = inName;
            return this;
        }

        /**
         * Continues the run in the output folder from its journal, as {@code --resume DIR} does: give the options the
         * run was started with; the plan must be the run's.
         */
        public Builder resume(boolean resume) {
            this.resume = resume;
            return this;
        }

        /**
         * Searches each selected variant's capacity under its SLOs, as {@code --capacity=SHARE} does: {@code share} of
         * the requests must meet them.
         */
        public Builder capacity(double share) {
            this.capacity = new CapacityOptions(java.util.OptionalDouble.of(share));
            return this;
        }

        /**
         * Searches each selected variant's capacity under its SLOs, as {@code --capacity} does: the share of requests
         * its {@code @Slo(minAttainment)} states must meet them, else 0.99.
         */
        public Builder capacity() {
            this.capacity = new CapacityOptions(java.util.OptionalDouble.empty());
            return this;
        }

        /** How the engines' GPUs are sampled, and the price of a GPU hour; unset: {@link TelemetryParams#DEFAULTS}. */
        public Builder telemetry(TelemetryParams newTelemetry) {
            this.telemetry = newTelemetry;
            return this;
        }

        /**
         * The largest share of a repetition's measured requests that may fail before its trial fails, as
         * {@code --max-failed-share} sets it; a repetition whose requests all failed fails whatever the share.
         */
        public Builder maxFailedShare(double share) {
            this.maxFailedShare = share;
            return this;
        }

        /** Run {@code study}, written on the command line ({@code run}), instead of classes. */
        public Builder adHoc(AdHocStudy study) {
            this.adHoc = Objects.requireNonNull(study, "study");
            return this;
        }

        /** Run the server configurations as SLURM jobs; {@code null} (the default) runs them here. */
        public Builder slurm(SlurmParams newSlurm) {
            this.slurm = newSlurm;
            return this;
        }

        /**
         * @throws IllegalArgumentException for a value out of range, naming it
         */
        public RunOptions build() {
            return new RunOptions(includes, studies.stream().distinct().toList(), overrides, trials.stream().distinct().toList(),
                    Optional.ofNullable(repetitions), Optional.ofNullable(outputDir), simulate,
                    Optional.ofNullable(simulatedGpu), Optional.ofNullable(simulatedModelConfig), simulatedAcceptance,
                    Optional.ofNullable(readyTimeout), Optional.ofNullable(stopGrace), Optional.ofNullable(containerRuntime), quick, Optional.ofNullable(seed), freshServer,
                    Optional.ofNullable(settle), Optional.ofNullable(slice), engineOverrides, client,
                    Optional.ofNullable(language), slo, progress, verbose, jmhPrimary, jmhParamsInName, resume,
                    Optional.ofNullable(capacity), Optional.ofNullable(slurm), telemetry, Optional.ofNullable(timelineGap),
                    Optional.ofNullable(maxFailedShare), Optional.ofNullable(adHoc));
        }
    }
}
