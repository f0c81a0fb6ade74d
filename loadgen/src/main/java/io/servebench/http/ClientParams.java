package io.servebench.http;

import javax.net.ssl.SSLContext;
import java.time.Duration;
import java.util.Objects;

/**
 * How an {@link Http1Client} connects and waits.
 *
 * @param connectTimeout the longest wait for a connection, TLS handshake included
 * @param idleTimeout    the longest silence while a response is awaited (head or further body bytes)
 * @param maxConnections the most connections open at once; a request finding all of them busy waits for one
 * @param ioThreads      selector threads reading the responses, {@code >= 1}
 * @param polling        whether a selector thread polls instead of sleeping while its reads are frequent: reads are
 *                       stamped closer to their arrival for more of the client's CPU (docs/measurement-truth.md)
 * @param sslContext     for {@code https}; {@code null} for the JVM's default (its trust store, see the
 *                       {@code javax.net.ssl.trustStore} system property)
 */
public record ClientParams(Duration connectTimeout, Duration idleTimeout, int maxConnections, int ioThreads,
                           boolean polling, SSLContext sslContext) {

    public ClientParams {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (connectTimeout.isNegative() || connectTimeout.isZero() || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive, got connect " + connectTimeout + " and idle "
                    + idleTimeout);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be >= 1, got " + maxConnections);
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads must be >= 1, got " + ioThreads);
        }
    }
}
