package io.servebench.execution;

import io.servebench.load.LoadParams;

import java.time.Duration;
import java.util.Objects;

/**
 * How the load generator's HTTP client talks to every engine of a run: the command line's client settings.
 *
 * @param apiKeyEnv      name of the environment variable holding the bearer token, {@code null} to send none.
 *                       Only the name is kept here, so that this object and the recorded command line are safe
 *                       to print
 * @param connectTimeout the longest wait for a connection
 * @param requestTimeout the longest silence while a request is in flight
 * @param loadWorkers    the processes each load is spread over ({@code --load-workers},
 *                       {@link io.servebench.load.LoadWorkers}); 1 sends it from this process
 */
public record ClientOptions(String apiKeyEnv, Duration connectTimeout, Duration requestTimeout, int loadWorkers) {

    /** No API key, {@link LoadParams}'s default timeouts, one process. */
    public static final ClientOptions DEFAULTS =
            new ClientOptions(null, LoadParams.DEFAULT_CONNECT_TIMEOUT, LoadParams.DEFAULT_REQUEST_TIMEOUT);

    /** Each load sent from this process. */
    public ClientOptions(String apiKeyEnv, Duration connectTimeout, Duration requestTimeout) {
        this(apiKeyEnv, connectTimeout, requestTimeout, 1);
    }

    public ClientOptions {
        if (apiKeyEnv != null && apiKeyEnv.isBlank()) {
            throw new IllegalArgumentException("--api-key-env needs the name of an environment variable, got a blank one");
        }
        requirePositive("--connect-timeout", connectTimeout);
        requirePositive("--request-timeout", requestTimeout);
        if (loadWorkers < 1) {
            throw new IllegalArgumentException("--load-workers " + loadWorkers + ": expected 1 (this process) or more"
                    + " worker processes, e.g. --load-workers 4");
        }
    }

    private static void requirePositive(String option, Duration d) {
        Objects.requireNonNull(d, option);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(option + " " + d.toMillis() / 1000.0 + ": expected a positive number of seconds");
        }
    }
}
