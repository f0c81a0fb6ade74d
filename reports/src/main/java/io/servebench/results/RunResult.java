package io.servebench.results;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;

/**
 * Everything one run produced, as the reporters consume it.
 *
 * @param startTime          when the run started, ISO-8601 UTC instant ({@code 2026-03-01T12:00:00Z});
 *                           a string so the model needs no Jackson time module
 * @param servebenchVersion  the harness version
 * @param commandLine        the command line the run was started with, secrets redacted
 * @param engines            what served the trials: the declared engines, or the simulated engine in which mode
 * @param quick              whether the run used the quick (shortened) settings
 * @param blocks             result blocks in report order
 * @param servers            the environment of each server start, in start order
 * @param tuning             how a tuning study reached its recommendation; {@code null} for a run of the trials a study
 *                           lists
 * @param capacities         each configuration's capacity under its SLOs, for a run with {@code --capacity}; empty
 *                           otherwise
 * @param searchStopped      whether a tuner's or a capacity search's steps were interrupted before they decided: its
 *                           blocks are all it measured, and no recommendation or capacity stands for the rest
 */
public record RunResult(String startTime, String servebenchVersion, String commandLine, EngineMode engines,
                        boolean quick, List<BlockResult> blocks, List<ServerEnvironment> servers, TuningResult tuning,
                        List<CapacityResult> capacities, boolean searchStopped) {

    /** A run whose tuner or capacity search, if any, ran to its end. */
    public RunResult(String startTime, String servebenchVersion, String commandLine, EngineMode engines, boolean quick,
                     List<BlockResult> blocks, List<ServerEnvironment> servers, TuningResult tuning,
                     List<CapacityResult> capacities) {
        this(startTime, servebenchVersion, commandLine, engines, quick, blocks, servers, tuning, capacities, false);
    }

    /** A run of the trials its studies list, without a tuner or a capacity search. */
    public RunResult(String startTime, String servebenchVersion, String commandLine, EngineMode engines, boolean quick,
                     List<BlockResult> blocks, List<ServerEnvironment> servers) {
        this(startTime, servebenchVersion, commandLine, engines, quick, blocks, servers, null, List.of());
    }

    /** A run whose server environments were not captured. */
    public RunResult(String startTime, String servebenchVersion, String commandLine, EngineMode engines, boolean quick,
                     List<BlockResult> blocks) {
        this(startTime, servebenchVersion, commandLine, engines, quick, blocks, List.of());
    }


    public RunResult {
        Objects.requireNonNull(startTime, "startTime");
        try {
            Instant.parse(startTime);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("startTime \"" + startTime
                    + "\" is not an ISO-8601 instant such as 2026-03-01T12:00:00Z", e);
        }
        servebenchVersion = Objects.requireNonNullElse(servebenchVersion, "");
        commandLine = Objects.requireNonNullElse(commandLine, "");
        Objects.requireNonNull(engines, "engines");
        blocks = blocks == null ? List.of() : List.copyOf(blocks);
        servers = servers == null ? List.of() : List.copyOf(servers);
        capacities = capacities == null ? List.of() : List.copyOf(capacities);
    }
}
