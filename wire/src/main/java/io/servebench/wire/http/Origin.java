package io.servebench.wire.http;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/**
 * Where requests go: scheme, host and port of a base URI.
 *
 * @param tls  whether the scheme is {@code https}
 * @param host the host name or address, without brackets for IPv6
 * @param port the TCP port, the scheme's default when the URI names none
 */
public record Origin(boolean tls, String host, int port) {

    public Origin {
        Objects.requireNonNull(host, "host");
        if (host.isEmpty()) {
            throw new IllegalArgumentException("the host must not be empty");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be 1..65535, got " + port);
        }
    }

    /**
     * The origin of {@code uri}.
     *
     * @throws IllegalArgumentException when the scheme is not http or https, or the URI has no host
     */
    public static Origin of(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean tls = switch (scheme) {
            case "http" -> false;
            case "https" -> true;
            default -> throw new IllegalArgumentException("base URI " + uri + " must start with http:// or https://");
        };
        String host = uri.getHost();
        if (host == null) {
            throw new IllegalArgumentException("base URI " + uri + " names no host");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new Origin(tls, host, uri.getPort() == -1 ? (tls ? 443 : 80) : uri.getPort());
    }

    /** The {@code Host} header's value: the port is left out when it is the scheme's default. */
    public String hostHeader() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == (tls ? 443 : 80) ? h : h + ":" + port;
    }

    @Override
    public String toString() {
        return (tls ? "https://" : "http://") + hostHeader();
    }
}
