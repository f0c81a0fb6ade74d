package io.servebench.http;

import javax.net.ssl.SSLException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;

/**
 * Why an exchange failed, each kind with the name it has in a request record's error
 * ({@code kind: detail}).
 */
public enum HttpFailure {
    /** The TCP connection could not be made: refused, unreachable, unknown host, out of ports or files. */
    CONNECT,
    /** The TCP connection (or its TLS handshake) took longer than the connect timeout. */
    CONNECT_TIMEOUT,
    /** No bytes arrived for longer than the idle timeout while a response was awaited. */
    TIMEOUT,
    /** The server closed the connection before the response ended. */
    CLOSED,
    /** The server reset the connection. */
    RESET,
    /** The TLS handshake or a TLS record failed. */
    TLS,
    /** The response broke HTTP/1.1's rules (status line, headers, chunk framing). */
    MALFORMED,
    /** The client was closed while the exchange was in flight. */
    CANCELLED,
    /** The client gave the request up on purpose ({@link Call#abort}): a user who navigated away, say. */
    CLIENT_CANCEL,
    /** The request outlived the whole-life limit the client set on it ({@link Call#abort}). */
    DEADLINE,
    /** Any other I/O error. */
    IO;

    /** The constant's name in lower case: {@code connect_timeout}. */
    private final String kind = name().toLowerCase(Locale.ROOT);

    /** The error kind as records name it. */
    public String kind() {
        return kind;
    }

    /**
     * The kind of a failure that surfaced as {@code error}.
     *
     * @param connecting whether the connection was still being made (then any I/O error is a connect failure)
     */
    static HttpFailure of(Throwable error, boolean connecting) {
        if (error instanceof HttpProtocolException) {
            return MALFORMED;
        }
        if (error instanceof SSLException) {
            return TLS;
        }
        if (connecting || error instanceof ConnectException || error instanceof NoRouteToHostException
                || error instanceof UnresolvedAddressException) {
            return CONNECT;
        }
        String message = error.getMessage() == null ? "" : error.getMessage().toLowerCase(Locale.ROOT);
        if (message.contains("reset")) {
            return RESET;
        }
        if (message.contains("broken pipe")) {
            return CLOSED;
        }
        return IO;
    }

    /** A failure's text for a person: its message, else the exception's class. */
    static String detail(Throwable error) {
        return error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
    }

    /** {@code kind: detail}. */
    public String describe(String detail) {
        return kind + ": " + detail;
    }
}
