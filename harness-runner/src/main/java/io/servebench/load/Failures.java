package io.servebench.load;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ConnectionClosedException;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CancellationException;

/** Turns the exceptions of the HTTP client into the {@code kind: detail} errors of {@link RequestRecord}. */
final class Failures {

    private Failures() {
    }

    /**
     * The error text for a request that failed with {@code failure}.
     *
     * @param requestTimeout the configured silence limit, named in {@code timeout} errors
     */
    static String describe(Throwable failure, Duration requestTimeout) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String detail = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (t instanceof ConnectTimeoutException) {
                return "connect_timeout: " + detail;
            }
            if (t instanceof SocketTimeoutException) {
                return "timeout: no response bytes for " + requestTimeout.toMillis() + " ms (" + detail + ")";
            }
            if (t instanceof ConnectException || t instanceof NoRouteToHostException
                    || t instanceof UnknownHostException) {
                return "connect: " + detail;
            }
            if (t instanceof ConnectionClosedException) {
                return "closed: " + detail;
            }
            if (t instanceof SocketException && detail.toLowerCase(Locale.ROOT).contains("reset")) {
                return "reset: " + detail;
            }
            if (t instanceof MalformedStreamException) {
                return "malformed: " + detail;
            }
            if (t instanceof CancellationException) {
                return "cancelled: " + detail;
            }
        }
        String detail = failure.getMessage() == null ? "" : ": " + failure.getMessage();
        return (failure instanceof java.io.IOException ? "io: " : "client: ") + failure.getClass().getName() + detail;
    }
}
