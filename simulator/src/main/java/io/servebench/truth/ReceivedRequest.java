package io.servebench.truth;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A request as the {@link TruthServer} read it: what a client sent, for a test to check.
 *
 * @param method  the request line's method
 * @param path    the request target, query included
 * @param headers every header by its lower-case name (the last one where a name repeats)
 * @param body    the body as UTF-8 text
 */
public record ReceivedRequest(String method, String path, Map<String, String> headers, String body) {

    public ReceivedRequest {
        headers = Collections.unmodifiableMap(new TreeMap<>(headers));
    }

    /** The {@code X-Request-Id} header, {@code null} when absent. */
    public String requestId() {
        return headers.get("x-request-id");
    }

    /** From the head's lines (the request line first) and the body's bytes. */
    static ReceivedRequest of(String method, String path, String[] headLines, byte[] body) {
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < headLines.length; i++) {
            int colon = headLines[i].indexOf(':');
            if (colon > 0) {
                headers.put(headLines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        headLines[i].substring(colon + 1).trim());
            }
        }
        return new ReceivedRequest(method, path, headers, new String(body, StandardCharsets.UTF_8));
    }
}
