package io.servebench.runner;

import java.util.OptionalDouble;

/**
 * {@code --capacity}: search each selected variant's capacity under its SLOs instead of running the planned trials.
 *
 * @param share the share of requests that must meet the SLOs, in (0, 1]; empty for what each variant's
 *              {@code @Slo(minAttainment)} states (else 0.99)
 */
public record CapacityOptions(OptionalDouble share) {

    public CapacityOptions {
        if (share.isPresent() && !(share.getAsDouble() > 0 && share.getAsDouble() <= 1)) {
            throw new IllegalArgumentException("--capacity=" + share.getAsDouble()
                    + ": expected a share of requests in (0, 1], e.g. 0.99");
        }
    }
}
