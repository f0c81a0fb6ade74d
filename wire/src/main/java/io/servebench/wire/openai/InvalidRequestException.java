package io.servebench.wire.openai;

/** A request body that breaks the API's rules; the message names the field and what it should be, for a 400. */
public final class InvalidRequestException extends Exception {

    public InvalidRequestException(String message) {
        super(message);
    }
}
