package io.servebench.study;

import java.util.Optional;

/** A field or method of a study class, as {@link StudyReader} reads it. */
public interface StudyMember {

    /** The field's or method's name. */
    String name();

    /** A field's type as a study names it ({@code int}, {@code String}, a class's name); a method's is not read. */
    String typeName();

    /** The ServeBench annotation of that simple name ({@code "Variant"}) on this member; empty when it has none. */
    Optional<AnnotationValues> annotation(String simpleName);
}
