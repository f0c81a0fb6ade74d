package io.servebench.load;

import java.time.Duration;

/**
 * When the load generator stops sending before every request has gone out. Requests already in flight
 * always finish; only new sends stop. The request count is the run's length and is not repeated here.
 *
 * @param maxDuration stop sending once this long has passed since the start instant; {@code null} for no limit
 * @param maxErrors   stop sending once this many requests (warm-up ones included) have failed; 0 for no limit
 * @param saturationWindow stop sending once the server is over-saturated over this long a window
 *                    ({@link SaturationDetector}'s rule); {@code null} for no such stop
 */
public record StopConditions(Duration maxDuration, int maxErrors, Duration saturationWindow) {

    /** No limit but the request count. */
    public static final StopConditions NONE = new StopConditions(null, 0, null);

    /** Conditions without the over-saturation stop. */
    public StopConditions(Duration maxDuration, int maxErrors) {
        this(maxDuration, maxErrors, null);
    }

    public StopConditions {
        if (maxDuration != null && (maxDuration.isNegative() || maxDuration.isZero())) {
            throw new IllegalArgumentException("maxDuration must be positive or null (no limit), got " + maxDuration);
        }
        if (saturationWindow != null && (saturationWindow.isNegative() || saturationWindow.isZero())) {
            throw new IllegalArgumentException("saturationWindow must be positive or null (no such stop), got "
                    + saturationWindow);
        }
        if (maxErrors < 0) {
            throw new IllegalArgumentException("maxErrors must be >= 0 (0 = no limit), got " + maxErrors);
        }
    }
}
