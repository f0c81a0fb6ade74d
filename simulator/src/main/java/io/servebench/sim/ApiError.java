package io.servebench.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A request the engine refuses, answered as an OpenAI-style error body with this status. */
final class ApiError extends Exception {

    private static final long serialVersionUID = 1L;

    final int status;
    final String type;

    private ApiError(int status, String type, String message) {
        super(message);
        this.status = status;
        this.type = type;
    }

    /** The body sent with the status, as vLLM's: {@code {"error": {"message", "type", "param", "code"}}}. */
    ObjectNode body(ObjectMapper json) {
        ObjectNode error = json.createObjectNode();
        error.putObject("error").put("message", getMessage()).put("type", type).putNull("param").put("code", status);
        return error;
    }

    /** HTTP 400, {@code BadRequestError}. */
    static ApiError badRequest(String message) {
        return new ApiError(400, "BadRequestError", message);
    }

    /** HTTP 404, {@code NotFoundError}. */
    static ApiError notFound(String message) {
        return new ApiError(404, "NotFoundError", message);
    }
}
