package io.servebench.results;

import java.util.List;
import java.util.Objects;

/**
 * Where one server ran and what it was, captured once per server start so that results can be told
 * apart from results of another engine version, GPU or driver. Secrets are masked before capture.
 *
 * @param serverId          the server's id in the run ({@code logs/<serverId>.log})
 * @param engine            engine kind, {@code sim:vllm} when the simulated engine stood in for vLLM
 * @param engineVersion     as the engine reports it ({@code vllm --version}, the Python package, the image tag), {@code ""} when unknown
 * @param model             the served model
 * @param command           the full command line with secrets masked, {@code ""} for an endpoint
 * @param gpus              one entry per GPU, {@code name, memory, driver} as {@code nvidia-smi} prints them; empty without one;
 *                          for the simulated engine, the GPUs it imitates ({@code NVIDIA H100 80GB HBM3 (simulated)})
 * @param cpu               CPU model and logical core count
 * @param host              host name
 * @param os                operating system name, version and architecture
 * @param jdk               the harness's Java runtime
 * @param servebenchVersion the harness version
 * @param startedAt         ISO-8601 instant the server became ready
 * @param engineLimits      the limits the engine set itself where the flags left them open, one sentence each
 *                          ("engine default: at most 48 running requests ..."); empty when none is known
 * @param twinBars          for the simulated engine, how far to trust it for this kind of set-up, one bar per load
 *                          regime; empty for a real engine
 * @param twinNotModelled   for the simulated engine, the flags it takes but does not model (its figures are as without
 *                          them), secrets masked; empty where it models them all, and for a real engine
 */
public record ServerEnvironment(String serverId, String engine, String engineVersion, String model, String command,
                                List<String> gpus, String cpu, String host, String os, String jdk, String servebenchVersion,
                                String startedAt, List<String> engineLimits, List<TwinBar> twinBars,
                                List<String> twinNotModelled) {

    public ServerEnvironment {
        Objects.requireNonNull(serverId, "serverId");
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
        // a journal written before the limits were recorded has none
        engineLimits = engineLimits == null ? List.of() : List.copyOf(engineLimits);
        twinBars = twinBars == null ? List.of() : List.copyOf(twinBars);
        twinNotModelled = twinNotModelled == null ? List.of() : List.copyOf(twinNotModelled);
    }

    /** This environment with {@code limits} as the limits its engine set itself. */
    public ServerEnvironment withEngineLimits(List<String> limits) {
        return new ServerEnvironment(serverId, engine, engineVersion, model, command, gpus, cpu, host, os, jdk,
                servebenchVersion, startedAt, limits, twinBars, twinNotModelled);
    }

    /** This environment with {@code gpus} as its GPUs: the simulated engine's, which it imitates, not the host's. */
    public ServerEnvironment withGpus(List<String> newGpus) {
        return new ServerEnvironment(serverId, engine, engineVersion, model, command, newGpus, cpu, host, os, jdk,
                servebenchVersion, startedAt, engineLimits, twinBars, twinNotModelled);
    }

    /** This environment with the simulated engine's error bars for its set-up and the flags it does not model. */
    public ServerEnvironment withTwin(List<TwinBar> bars, List<String> notModelled) {
        return new ServerEnvironment(serverId, engine, engineVersion, model, command, gpus, cpu, host, os, jdk,
                servebenchVersion, startedAt, engineLimits, bars, notModelled);
    }

    /** This environment with the engine's version as known without asking it (the simulated engine's, an image tag). */
    public ServerEnvironment withEngineVersion(String version) {
        return new ServerEnvironment(serverId, engine, version, model, command, gpus, cpu, host, os, jdk, servebenchVersion,
                startedAt, engineLimits, twinBars, twinNotModelled);
    }
}
