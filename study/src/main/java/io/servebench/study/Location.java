package io.servebench.study;

import java.util.Objects;

/**
 * Where in a study class a {@link Problem} is: the class, one of its variant methods or one of its
 * {@code @Param} fields, and within it an annotation, one of its attributes and, for an array
 * attribute, one element. The annotation processor turns it back into the element, annotation
 * mirror and annotation value, so that javac prints the file and line of the offending value.
 *
 * @param kind       what kind of member
 * @param member     the member's name (the method or field name; the class's simple name for {@link Kind#CLASS})
 * @param ordinal    the index of the member in {@link StudyDescriptor#variants()} (for {@link Kind#METHOD})
 *                   or {@link StudyDescriptor#params()} (for {@link Kind#FIELD}); -1 for {@link Kind#CLASS}.
 *                   Names alone cannot tell overloaded methods apart.
 * @param annotation simple name of the annotation (e.g. {@code "Workload"}), or {@code null} for the member itself
 * @param attribute  the annotation's attribute (e.g. {@code "rate"}), or {@code null} for the whole annotation
 * @param valueIndex the element of an array attribute, or -1 for the whole attribute
 */
public record Location(Kind kind, String member, int ordinal, String annotation, String attribute, int valueIndex) {

    /** What kind of member a location is in. */
    public enum Kind { CLASS, METHOD, FIELD }

    public Location {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(member, "member");
        if (attribute != null && annotation == null) {
            throw new IllegalArgumentException("attribute " + attribute + " given without its annotation");
        }
    }

    /** A location in the class's own annotations. */
    public static Location ofClass(StudyDescriptor study, String annotation, String attribute, int valueIndex) {
        return new Location(Kind.CLASS, study.simpleName(), -1, annotation, attribute, valueIndex);
    }

    /** A location in the annotations of the variant at {@code ordinal}. */
    public static Location ofVariant(StudyDescriptor study, int ordinal, String annotation, String attribute, int valueIndex) {
        return new Location(Kind.METHOD, study.variants().get(ordinal).name(), ordinal, annotation, attribute, valueIndex);
    }

    /** A location in the {@code @Param} of the field at {@code ordinal}. */
    public static Location ofParam(StudyDescriptor study, int ordinal, String attribute, int valueIndex) {
        return new Location(Kind.FIELD, study.params().get(ordinal).name(), ordinal, "Param", attribute, valueIndex);
    }

    /** E.g. {@code method prefixCaching() @Variant(flags[1])}, for messages outside javac. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(switch (kind) {
            case CLASS -> "class " + member;
            case METHOD -> "method " + member + "()";
            case FIELD -> "field " + member;
        });
        if (annotation != null) {
            s.append(" @").append(annotation);
            if (attribute != null) {
                s.append('(').append(attribute).append(valueIndex >= 0 ? "[" + valueIndex + "]" : "").append(')');
            }
        }
        return s.toString();
    }
}
