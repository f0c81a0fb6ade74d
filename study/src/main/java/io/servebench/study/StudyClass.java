package io.servebench.study;

import io.servebench.annotations.ServingBenchmark;

import java.util.List;
import java.util.Optional;

/**
 * A study class, as {@link StudyReader} reads it: from source while javac compiles it (the annotation processor's
 * implementation) or loaded (reflection, {@link StudyReader#read(Class)}). As JMH's {@code ClassInfo}, it lets one
 * reader serve both, so a study means the same at compile time and at run time.
 *
 * @param <M> the implementation's members, which a caller may map back to where they were written
 */
public interface StudyClass<M extends StudyMember> {

    /** The class's binary name ({@code pkg.Outer$Inner}), by which the runner loads it. */
    String binaryName();

    /** The ServeBench annotation of that simple name ({@code "Engine"}) on the class; empty when it has none. */
    Optional<AnnotationValues> annotation(String simpleName);

    /** The fields the class declares, in declaration order. */
    List<M> fields();

    /** The methods the class declares, in declaration order. */
    List<M> methods();

    /** The class it extends; empty when that is {@code Object}. */
    Optional<StudyClass<M>> superclass();

    /** The qualified name of the ServeBench annotation of that simple name: {@code io.servebench.annotations.Variant}. */
    static String annotationName(String simpleName) {
        return ServingBenchmark.class.getPackageName() + "." + simpleName;
    }
}
