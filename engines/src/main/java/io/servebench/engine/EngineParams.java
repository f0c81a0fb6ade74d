package io.servebench.engine;

import io.servebench.engine.kind.Redaction;
import io.servebench.sim.GpuProfile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How the run starts engines, resolved from the command line, the Runner API or the JUnit engine's configuration: a
 * {@code *Params}, as the options are resolved once, when the {@code Runner} is made.
 *
 * @param simulate         whether and how the simulated engine replaces the studies' engines
 * @param seed             the simulated engine's seed
 * @param readyTimeout     how long an engine may take to become ready
 * @param grace            how long an engine gets to exit after SIGTERM before SIGKILL
 * @param containerRuntime {@code docker} or {@code podman}, for studies that name an image
 * @param hfCache          the Hugging Face cache mounted into containers
 * @param apiKey           the bearer token the engine expects, {@code null} for none; never logged
 * @param adminApiKey      the key of an engine's admin routes ({@value io.servebench.flags.EngineFlags#ADMIN_API_KEY_ENV}), {@code null} for none; never
 *                         logged
 * @param simulatedGpu     the id in {@link GpuProfile#catalogue()} of the GPU the simulated engine imitates, per
 *                         tensor-parallel rank
 * @param simulatedModelConfig the {@code config.json} (or its folder) of the model the simulated engine stands in for,
 *                         for a model it does not know otherwise; {@code null} for none
 * @param simulatedAcceptance the draft acceptance the simulated engine gives speculative decoding, one rate per draft
 *                         position, each given the earlier ones were accepted ({@code --sim-acceptance-rate}); empty
 *                         for the draft method's default
 * @param listenAddress    the address the engines ServeBench starts listen on ({@link #LOOPBACK}, or {@link
 *                         #ALL_INTERFACES} where load workers on other machines must reach them); a container's port is
 *                         published on it
 */
public record EngineParams(Simulate simulate, long seed, Duration readyTimeout, Duration grace, String containerRuntime,
                            Path hfCache, String apiKey, String adminApiKey, String simulatedGpu,
                            Path simulatedModelConfig, List<Double> simulatedAcceptance, String listenAddress) {

    /** Where an engine listens unless load workers on other machines must reach it: nothing else can. */
    public static final String LOOPBACK = "127.0.0.1";
    /** Every interface: what vLLM and SGLang listen on by default, and what a load spread over other nodes needs. */
    public static final String ALL_INTERFACES = "0.0.0.0";

    public EngineParams {
        // checked here, so that a bad id fails before any engine starts
        GpuProfile.named(simulatedGpu);
        simulatedAcceptance = List.copyOf(simulatedAcceptance);
        if (listenAddress == null || listenAddress.isBlank()) {
            throw new IllegalArgumentException("engines' listen address: expected one, such as " + LOOPBACK);
        }
    }

    /** As a study's options without a listen address say: {@link #LOOPBACK}. */
    public EngineParams(Simulate simulate, long seed, Duration readyTimeout, Duration grace, String containerRuntime,
                         Path hfCache, String apiKey, String adminApiKey, String simulatedGpu, Path simulatedModelConfig) {
        this(simulate, seed, readyTimeout, grace, containerRuntime, hfCache, apiKey, adminApiKey, simulatedGpu,
                simulatedModelConfig, List.of(), LOOPBACK);
    }

    /** The id of the GPU the simulated engine imitates unless told otherwise. */
    public static final String DEFAULT_SIMULATED_GPU = "h100";

    /** Whether and how the simulated engine stands in for the studies' engines. */
    public enum Simulate {
        /** Start the engines the studies name. */
        OFF,
        /** Run the simulated engine inside the harness's JVM. */
        IN_PROCESS,
        /** Start the simulated engine as a process, exactly as a real engine is started. */
        PROCESS,
        /**
         * Run the simulated engine's model as a discrete-event simulation, without sockets or sleeping: a trial
         * takes milliseconds whatever its modelled duration, and its records are on the virtual clock.
         */
        VIRTUAL;

        /** The modes a simulation is asked for by, as {@code --simulate=MODE} and {@code servebench.simulate} write them. */
        public static final List<String> WORDS = java.util.Arrays.stream(values()).filter(m -> m != OFF).map(Simulate::word)
                .toList();

        /** The word that asks for this mode: {@code off}, {@code in-process}, {@code process} or {@code virtual}. */
        public String word() {
            return switch (this) {
                case OFF -> "off";
                case IN_PROCESS -> "in-process";
                case PROCESS -> "process";
                case VIRTUAL -> "virtual";
            };
        }

        /**
         * The mode a word asks for: {@code in-process}, {@code process}, {@code virtual} or {@code off}, any case; a
         * JUnit configuration's {@code true} and {@code false} too.
         *
         * @throws IllegalArgumentException naming the word and the ones expected
         */
        public static Simulate of(String word) {
            String w = word.strip().toLowerCase(java.util.Locale.ROOT);
            return switch (w) {
                case "off", "false" -> OFF;
                case "true" -> IN_PROCESS;
                default -> java.util.Arrays.stream(values()).filter(m -> m.word().equals(w)).findFirst().orElseThrow(
                        () -> new IllegalArgumentException("\"" + word + "\" is no way to simulate; expected "
                                + String.join(", ", WORDS) + " or off"));
            };
        }
    }

    public static final long DEFAULT_READY_TIMEOUT_SECONDS = 20 * 60;
    public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(DEFAULT_READY_TIMEOUT_SECONDS);
    public static final long DEFAULT_GRACE_SECONDS = 30;
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(DEFAULT_GRACE_SECONDS);

    /** The Hugging Face cache: {@code $HF_HOME}, else {@code ~/.cache/huggingface}. */
    public static Path defaultHfCache() {
        String hfHome = System.getenv("HF_HOME");
        return hfHome != null ? Path.of(hfHome) : Path.of(System.getProperty("user.home"), ".cache", "huggingface");
    }

    /** Options for a run that starts engines itself with the defaults. */
    public static EngineParams defaults(Simulate simulate, long seed) {
        return new EngineParams(simulate, seed, DEFAULT_READY_TIMEOUT, DEFAULT_GRACE, "docker", defaultHfCache(), null,
                null, DEFAULT_SIMULATED_GPU, null);
    }

    /**
     * These options with the bearer token the engines expect (read from {@code --api-key-env}'s variable) and the admin
     * key ({@value io.servebench.flags.EngineFlags#ADMIN_API_KEY_ENV}'s), each {@code null} for none.
     */
    public EngineParams withKeys(String key, String adminKey) {
        return new EngineParams(simulate, seed, readyTimeout, grace, containerRuntime, hfCache, key, adminKey, simulatedGpu,
                simulatedModelConfig, simulatedAcceptance, listenAddress);
    }

    /** These options with the engines listening on {@code address} ({@link #LOOPBACK} or {@link #ALL_INTERFACES}). */
    public EngineParams listeningOn(String address) {
        return new EngineParams(simulate, seed, readyTimeout, grace, containerRuntime, hfCache, apiKey, adminApiKey,
                simulatedGpu, simulatedModelConfig, simulatedAcceptance, address);
    }

    /** These options with the simulated engine giving drafts this acceptance ({@link #simulatedAcceptance}). */
    public EngineParams withSimulatedAcceptance(List<Double> acceptance) {
        return new EngineParams(simulate, seed, readyTimeout, grace, containerRuntime, hfCache, apiKey, adminApiKey,
                simulatedGpu, simulatedModelConfig, acceptance, listenAddress);
    }

    @Override
    public String toString() {
        return "EngineParams[simulate=" + simulate + ", seed=" + seed + ", readyTimeout=" + readyTimeout + ", grace=" + grace
                + ", containerRuntime=" + containerRuntime + ", hfCache=" + hfCache + ", apiKey="
                + (apiKey == null ? "none" : Redaction.MASK) + ", adminApiKey=" + (adminApiKey == null ? "none" : Redaction.MASK)
                + ", simulatedGpu=" + simulatedGpu + ", simulatedModelConfig=" + simulatedModelConfig
                + ", simulatedAcceptance=" + simulatedAcceptance + ", listenAddress="
                + listenAddress + "]";
    }
}
