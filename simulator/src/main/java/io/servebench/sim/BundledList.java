package io.servebench.sim;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/** A JSON list bundled on the class path beside this package's classes, which a build without it cannot run. */
final class BundledList {

    private BundledList() {
    }

    /** The list in the resource {@code name}, read as {@code type}. */
    static <T> List<T> read(String name, TypeReference<List<T>> type) {
        try (InputStream in = BundledList.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the class path: the build is broken");
            }
            return List.copyOf(new ObjectMapper().readValue(in, type));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }
}
