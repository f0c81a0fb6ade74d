package io.servebench.engine;

/** An engine could not be started or did not become ready; the message says why and where its log is. */
public class EngineStartException extends Exception {

    private static final long serialVersionUID = 1L;

    public EngineStartException(String message) {
        super(message);
    }

    public EngineStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
