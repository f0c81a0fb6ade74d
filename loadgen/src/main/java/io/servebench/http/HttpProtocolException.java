package io.servebench.http;

import java.io.IOException;

/** The server's bytes broke HTTP/1.1 framing; the message names what was wrong. */
final class HttpProtocolException extends IOException {
    HttpProtocolException(String message) {
        super(message);
    }
}
