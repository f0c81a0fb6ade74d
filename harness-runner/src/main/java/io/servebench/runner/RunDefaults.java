package io.servebench.runner;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * What a run uses for an option left unset, as JMH's {@code Defaults} does: {@link RunParams} resolves
 * {@link RunOptions} with these, and the command line's help names them from here.
 */
public final class RunDefaults {

    /** Independent runs of each trial. */
    public static final int REPETITIONS = 1;
    /** The seed of request order, arrival times and the simulated engine. */
    public static final long SEED = 42;
    /** The pause between two loads on one server, in seconds. */
    public static final long SETTLE_SECONDS = 1;
    /** The shortest gap between token events the request timeline marks, in ms. */
    public static final long TIMELINE_GAP_MS = 100;
    /** The time slices of a long load, in seconds. */
    public static final long SLICE_SECONDS = 60;
    /** The container runtime of studies that name an image. */
    public static final String CONTAINER_RUNTIME = "docker";

    private RunDefaults() {
    }

    /** The run folder of a run that names none: {@code results/yyyyMMdd-HHmmss}, of now. */
    public static Path outputDir() {
        return Path.of("results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }
}
