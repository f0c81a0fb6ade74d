package io.servebench.load;

/**
 * Told about every request as it finishes, e.g. to drive a progress bar.
 *
 * <p>Called from the HTTP client's I/O threads, possibly concurrently: implementations must be
 * thread-safe and quick, since time spent here delays the reading of other responses.
 */
@FunctionalInterface
public interface LoadListener {

    /** A listener that ignores everything. */
    LoadListener NONE = record -> { };

    /** {@code record} has finished, successfully or not (see {@link RequestRecord#succeeded()}). */
    void onComplete(RequestRecord record);
}
