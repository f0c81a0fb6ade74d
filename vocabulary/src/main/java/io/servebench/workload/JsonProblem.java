package io.servebench.workload;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * What is wrong with a dataset's JSON, in ServeBench's words: where (line and column) and what the parser found, without
 * the parser's own internals (Jackson's {@code [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION`
 * disabled); ...]}).
 */
final class JsonProblem {

    private JsonProblem() {
    }

    /** "line 2, column 20: unexpected close marker '}': expected ']' (for the array that starts at line 1, column 1)". */
    static String of(JsonProcessingException e) {
        return at(e) + ": " + what(e);
    }

    /** The parser's complaint alone, its locations as "line L, column C". */
    static String what(JsonProcessingException e) {
        String message = e.getOriginalMessage()
                .replaceAll("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]", "line $1, column $2")
                .replaceAll("\\s*\\[Source: [^\\]]*\\]", "")
                .replace("(for Array starting at ", "(for the array that starts at ")
                .replace("(for Object starting at ", "(for the object that starts at ")
                .replace("for root starting at ", "for the document that starts at ")
                .strip();
        return message.isEmpty() ? message : Character.toLowerCase(message.charAt(0)) + message.substring(1);
    }

    /** "line 2, column 20", where the parser stopped; "somewhere" when it does not say. */
    static String at(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        return location == null || location.getLineNr() < 1 ? "somewhere"
                : "line " + location.getLineNr() + ", column " + location.getColumnNr();
    }
}
