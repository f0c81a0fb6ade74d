package io.servebench.loadcheck;

import io.servebench.http.PoolStats;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one {@link LoadCheck}. Times are in milliseconds; errors are the client's measurement
 * minus the server's truth.
 *
 * @param requestedRate      requests/s asked for, NaN for a closed-loop check
 * @param concurrency        closed-loop streams, 0 for a constant-rate check
 * @param tokens             tokens (events) per request
 * @param requests           measured requests
 * @param failed             of which failed
 * @param errorKinds         failed requests per error kind
 * @param achievedRate       measured requests minus one over the span of their send times, requests/s
 * @param lagP50Ms           schedule lag ({@code sent − intended}) median
 * @param lagP99Ms           its 99th percentile
 * @param lagMaxMs           its maximum
 * @param ttftErrorP50Ms     client first-token time minus the server's write of the first token event, median
 * @param ttftErrorP99Ms     its 99th percentile
 * @param ttftErrorMaxMs     its maximum
 * @param itlErrorP50Ms      |client gap − server gap| between consecutive events, median
 * @param itlErrorP99Ms      its 99th percentile
 * @param eventDelayP50Ms    client time of an event minus the server's write of it, median
 * @param eventDelayP99Ms    its 99th percentile
 * @param unmatched          successful requests whose events did not match the server's (should be 0)
 * @param eventsPerSecond    token events received over the measurement window
 * @param clientPeakStreams  most requests in flight, as the client saw them
 * @param serverPeakStreams  most streams open at once, as the server saw them; with several truth servers the sum of
 *                           each one's peak (at least the streams open at once)
 * @param truthServers       the truth servers the load was spread over
 * @param clientCpuUsPerEvent CPU time of the client's threads (sender and HTTP I/O threads), warm-up included,
 *                           per token event received, microseconds
 * @param clientUserUsPerEvent of which in user mode (the rest is the kernel's socket work)
 * @param serverCpuUsPerEvent CPU time of the truth server's thread per token event, microseconds
 * @param processBusy        CPU time of this whole process (client, server, JIT, GC) and of its load workers over the
 *                           load, as a share of all the machine's cores, 0 to 1
 * @param maxEventsPerRead   the most token events one network read held
 * @param connections        what the client's connection pool did
 * @param limits             the host's limits on open files and local ports, in words
 * @param warnings           what held the check back or may have, one sentence each
 * @param processes          the processes {@code processBusy} counts, in words
 */
public record LoadCheckReport(double requestedRate, int concurrency, int tokens, int requests, long failed,
                              Map<String, Long> errorKinds, double achievedRate, double lagP50Ms, double lagP99Ms,
                              double lagMaxMs, double ttftErrorP50Ms, double ttftErrorP99Ms, double ttftErrorMaxMs,
                              double itlErrorP50Ms, double itlErrorP99Ms, double eventDelayP50Ms,
                              double eventDelayP99Ms, int unmatched, double eventsPerSecond, int clientPeakStreams,
                              int serverPeakStreams, int truthServers, double clientCpuUsPerEvent, double clientUserUsPerEvent,
                              double serverCpuUsPerEvent, double processBusy, int maxEventsPerRead, PoolStats connections, String limits, List<String> warnings,
                              String processes) {

    public LoadCheckReport {
        errorKinds = Map.copyOf(errorKinds);
        warnings = List.copyOf(warnings);
    }

    /** The achieved rate's deviation from the requested one, percent (NaN for a closed-loop check). */
    public double rateErrorPercent() {
        return (achievedRate / requestedRate - 1) * 100;
    }

    /** Prints the figures, one per line, then the {@link #summaryLine()}. */
    public void print(PrintWriter out) {
        if (concurrency > 0) {
            out.printf(Locale.ROOT, "load            %d closed-loop streams, %d tokens per request, %d requests%n",
                    concurrency, tokens, requests);
            out.printf(Locale.ROOT, "rate            achieved %.2f req/s%n", achievedRate);
        } else {
            out.printf(Locale.ROOT, "load            %.2f req/s constant, %d tokens per request, %d requests%n",
                    requestedRate, tokens, requests);
            out.printf(Locale.ROOT, "rate            achieved %.2f req/s vs requested %.2f (%+.3f%%)%n", achievedRate,
                    requestedRate, rateErrorPercent());
        }
        out.printf(Locale.ROOT, "failed          %d%s%n", failed, errorKinds.isEmpty() ? "" : " " + errorKinds);
        out.printf(Locale.ROOT, "schedule lag    p50 %.3f ms  p99 %.3f ms  max %.3f ms%n", lagP50Ms, lagP99Ms, lagMaxMs);
        out.printf(Locale.ROOT, "TTFT error      p50 %.3f ms  p99 %.3f ms  max %.3f ms  (client first token - server write)%n",
                ttftErrorP50Ms, ttftErrorP99Ms, ttftErrorMaxMs);
        out.printf(Locale.ROOT, "ITL error       p50 %.3f ms  p99 %.3f ms  (|client gap - server gap|)%n",
                itlErrorP50Ms, itlErrorP99Ms);
        out.printf(Locale.ROOT, "event delay     p50 %.3f ms  p99 %.3f ms  (client read - server write)%n",
                eventDelayP50Ms, eventDelayP99Ms);
        out.printf(Locale.ROOT, "events          %.0f events/s, at most %d token events in one read%n", eventsPerSecond,
                maxEventsPerRead);
        out.printf(Locale.ROOT, "streams         peak %d in flight (client), %d open (%s)%n", clientPeakStreams,
                serverPeakStreams, truthServers == 1 ? "server" : "the sum of " + truthServers + " servers' peaks");
        out.printf(Locale.ROOT, "client CPU      %.2f us per event (user %.2f, kernel %.2f)%n", clientCpuUsPerEvent,
                clientUserUsPerEvent, clientCpuUsPerEvent - clientUserUsPerEvent);
        out.printf(Locale.ROOT, "server CPU      %.2f us per event; %s kept %.0f%% of %d cores busy%n",
                serverCpuUsPerEvent, processes, 100 * processBusy, Runtime.getRuntime().availableProcessors());
        out.printf(Locale.ROOT, "connections     %d opened (%d ahead of need), peak %d open; sends that waited: %d for a"
                        + " new connection, %d at the limit of %d; %d failed to connect%n", connections.opened(),
                connections.openedAhead(), connections.peakOpen(), connections.sendsOnNewConnection(),
                connections.sendsAtLimit(), connections.maxConnections(), connections.connectFailures());
        out.printf(Locale.ROOT, "limits          %s%n", limits);
        if (unmatched > 0) {
            out.printf(Locale.ROOT, "WARNING         %d successful requests whose events differ from the server's%n",
                    unmatched);
        }
        for (String warning : warnings) {
            out.printf(Locale.ROOT, "WARNING         %s%n", warning);
        }
        out.println(summaryLine());
    }

    /** Every figure as {@code key=value}, space separated, on one line. */
    public String summaryLine() {
        return String.format(Locale.ROOT, "rate=%s concurrency=%d tokens=%d requests=%d failed=%d achieved_rate=%.3f"
                        + " rate_error_pct=%.4f lag_p50_ms=%.3f lag_p99_ms=%.3f lag_max_ms=%.3f ttft_err_p50_ms=%.3f"
                        + " ttft_err_p99_ms=%.3f ttft_err_max_ms=%.3f itl_err_p50_ms=%.3f itl_err_p99_ms=%.3f"
                        + " event_delay_p50_ms=%.3f event_delay_p99_ms=%.3f events_per_s=%.0f peak_streams=%d"
                        + " server_peak_streams=%d client_cpu_us_per_event=%.3f client_user_us_per_event=%.3f"
                        + " server_cpu_us_per_event=%.3f process_busy=%.3f"
                        + " max_events_per_read=%d sends_on_new_connection=%d sends_at_limit=%d connect_failures=%d"
                        + " unmatched=%d warnings=%d",
                Double.isNaN(requestedRate) ? "closed" : String.format(Locale.ROOT, "%.3f", requestedRate), concurrency,
                tokens, requests, failed, achievedRate, rateErrorPercent(), lagP50Ms, lagP99Ms, lagMaxMs,
                ttftErrorP50Ms, ttftErrorP99Ms, ttftErrorMaxMs, itlErrorP50Ms, itlErrorP99Ms, eventDelayP50Ms,
                eventDelayP99Ms, eventsPerSecond, clientPeakStreams, serverPeakStreams, clientCpuUsPerEvent,
                clientUserUsPerEvent, serverCpuUsPerEvent, processBusy, maxEventsPerRead, connections.sendsOnNewConnection(), connections.sendsAtLimit(),
                connections.connectFailures(), unmatched, warnings.size());
    }
}
