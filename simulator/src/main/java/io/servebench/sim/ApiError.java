package io.servebench.sim;

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

    /** HTTP 400, {@code BadRequestError}. */
    static ApiError badRequest(String message) {
        return new ApiError(400, "BadRequestError", message);
    }

    /** HTTP 404, {@code NotFoundError}. */
    static ApiError notFound(String message) {
        return new ApiError(404, "NotFoundError", message);
    }
}
