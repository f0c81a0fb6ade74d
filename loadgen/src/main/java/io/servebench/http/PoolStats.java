package io.servebench.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the connection pool did over a client's life: how often a send could not go out at once, and
 * why, so that a report can name the cause of schedule lag.
 *
 * @param maxConnections   the pool's limit
 * @param peakOpen         the most connections open (or opening) at once
 * @param opened           connections that were established
 * @param openedAhead      connections opened during the run, ahead of need, to keep spare ones idle
 * @param connectFailures  connection attempts that failed (refused, timed out, out of files or ports, TLS)
 * @param firstConnectFailure the first of those failures as {@code kind: detail}, {@code null} if none
 * @param sendsOnNewConnection sends that found no idle connection and waited for a new one to open
 * @param sendsAtLimit     sends that found every connection busy at the limit and waited for one to free up
 * @param retired          idle connections closed and replaced before the server's keep-alive timeout could
 *                         close them under a send
 * @param closedByServer   idle connections the server closed
 */
public record PoolStats(int maxConnections, int peakOpen, long opened, long openedAhead, long connectFailures,
                        String firstConnectFailure, long sendsOnNewConnection, long sendsAtLimit, long retired,
                        long closedByServer) {

    /** The pools of several replicas' clients as one: counts added, the first connect failure kept. */
    public PoolStats plus(PoolStats other) {
        return new PoolStats(maxConnections + other.maxConnections, peakOpen + other.peakOpen, opened + other.opened,
                openedAhead + other.openedAhead, connectFailures + other.connectFailures,
                firstConnectFailure != null ? firstConnectFailure : other.firstConnectFailure,
                sendsOnNewConnection + other.sendsOnNewConnection, sendsAtLimit + other.sendsAtLimit, retired + other.retired,
                closedByServer + other.closedByServer);
    }

    /**
     * One sentence for reports when sends had to wait for a connection or connections failed, naming the
     * cause and, for failures, the {@link HostLimits} that may be behind them; empty when every send found
     * an open connection.
     */
    public Optional<String> note(HostLimits limits) {
        List<String> parts = new ArrayList<>();
        if (sendsOnNewConnection > 0) {
            parts.add(String.format(Locale.ROOT, "%,d sends waited for a new connection to open", sendsOnNewConnection));
        }
        if (sendsAtLimit > 0) {
            parts.add(String.format(Locale.ROOT, "%,d sends waited because all %,d connections (the client's limit)"
                    + " were busy", sendsAtLimit, maxConnections));
        }
        if (connectFailures > 0) {
            parts.add(String.format(Locale.ROOT, "%,d connection attempts failed (first: %s; %s)", connectFailures,
                    firstConnectFailure, limits.bounds()));
        }
        return parts.isEmpty() ? Optional.empty()
                : Optional.of("connections: " + String.join("; ", parts) + ", which shows as schedule lag");
    }
}
