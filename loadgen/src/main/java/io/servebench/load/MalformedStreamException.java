package io.servebench.load;

/** The response stream broke the SSE or OpenAI streaming format in a way that ends the request. */
final class MalformedStreamException extends RuntimeException {
    public MalformedStreamException(String message) {
        super(message);
    }
}
