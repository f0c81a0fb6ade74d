package io.servebench.engine;

/** An engine started for a run; closing it stops it and frees what it held. */
public interface RunningEngine extends AutoCloseable {

    Endpoint endpoint();

    /** Stops the engine; idempotent, never throws. */
    @Override
    void close();
}
