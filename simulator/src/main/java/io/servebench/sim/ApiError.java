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

    /**
     * The body sent with the status, in the engine's form: vLLM's {@code {"error": {"message", "type", "param",
     * "code"}}}, SGLang's {@code {"object": "error", "message", "type", "param", "code"}}.
     */
    ObjectNode body(ObjectMapper json, SimDialect dialect) {
        ObjectNode root = json.createObjectNode();
        ObjectNode error = dialect.flatErrors() ? root.put("object", "error") : root.putObject("error");
        error.put("message", getMessage()).put("type", type).putNull("param").put("code", status);
        return root;
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
