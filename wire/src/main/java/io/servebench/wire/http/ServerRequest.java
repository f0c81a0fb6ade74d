package io.servebench.wire.http;

import java.util.Locale;
import java.util.Map;

/**
 * One request as the server read it, body included.
 *
 * @param method     {@code GET}, {@code POST}, ...
 * @param path       the request target's path, without the query
 * @param headers    header values by lower-case name (the last one where a header repeats)
 * @param body       the body's bytes, empty when it has none
 * @param receivedNs when its last byte was read ({@link System#nanoTime()})
 */
public record ServerRequest(String method, String path, Map<String, String> headers, byte[] body, long receivedNs) {

    public ServerRequest {
        headers = Map.copyOf(headers);
    }

    /** The header's value, {@code null} when absent; the name in any case. */
    public String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }
}
