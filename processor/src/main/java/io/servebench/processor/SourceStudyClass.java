package io.servebench.processor;

import io.servebench.study.AnnotationValues;
import io.servebench.study.StudyClass;
import io.servebench.study.StudyMember;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/**
 * A study class as javac sees it while compiling, for {@link io.servebench.study.StudyReader}: its members in source
 * order, its annotations as written (what was left out is told apart from what was written, even when it equals the
 * default). A value javac could not resolve (it reports that itself) reads as left out.
 */
final class SourceStudyClass implements StudyClass<SourceStudyClass.Member> {

    private final TypeElement type;
    private final Elements elements;

    SourceStudyClass(TypeElement type, Elements elements) {
        this.type = type;
        this.elements = elements;
    }

    /** A field or method, with the element it was written as, where a problem with it is reported. */
    final class Member implements StudyMember {
        private final Element element;

        Member(Element element) {
            this.element = element;
        }

        Element element() {
            return element;
        }

        @Override
        public String name() {
            return element.getSimpleName().toString();
        }

        @Override
        public String typeName() {
            return SourceStudyClass.typeName(element.asType());
        }

        @Override
        public Optional<AnnotationValues> annotation(String simpleName) {
            return values(element, simpleName);
        }
    }

    @Override
    public String binaryName() {
        return elements.getBinaryName(type).toString();
    }

    @Override
    public Optional<AnnotationValues> annotation(String simpleName) {
        return values(type, simpleName);
    }

    @Override
    public List<Member> fields() {
        return members(ElementKind.FIELD);
    }

    @Override
    public List<Member> methods() {
        return members(ElementKind.METHOD);
    }

    @Override
    public Optional<StudyClass<Member>> superclass() {
        return type.getSuperclass() instanceof javax.lang.model.type.DeclaredType parent
                && parent.asElement() instanceof TypeElement element
                && !element.getQualifiedName().contentEquals("java.lang.Object")
                ? Optional.of(new SourceStudyClass(element, elements)) : Optional.empty();
    }

    private List<Member> members(ElementKind kind) {
        return type.getEnclosedElements().stream().filter(e -> e.getKind() == kind).map(Member::new).toList();
    }

    /** The ServeBench annotation of that simple name on {@code element}, {@code null} when it has none. */
    static AnnotationMirror mirror(Element element, String simpleName) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(StudyClass.annotationName(simpleName))) {
                return mirror;
            }
        }
        return null;
    }

    /** The value written for {@code attribute} on {@code mirror}, {@code null} when it is left out. */
    static AnnotationValue explicitValue(AnnotationMirror mirror, String attribute) {
        return find(mirror.getElementValues(), attribute);
    }

    private Optional<AnnotationValues> values(Element element, String simpleName) {
        return Optional.ofNullable(mirror(element, simpleName)).map(Written::new);
    }

    private static AnnotationValue find(Map<? extends ExecutableElement, ? extends AnnotationValue> values, String attribute) {
        for (var entry : values.entrySet()) {
            if (entry.getKey().getSimpleName().contentEquals(attribute)) {
                return entry.getValue();
            }
        }
        return null;
    }

    private static String typeName(TypeMirror type) {
        return switch (type.getKind()) {
            case INT -> "int";
            case LONG -> "long";
            case DOUBLE -> "double";
            case BOOLEAN -> "boolean";
            default -> type.toString().equals("java.lang.String") ? "String" : type.toString();
        };
    }

    /** An annotation as written in source. */
    private final class Written implements AnnotationValues {
        private final AnnotationMirror mirror;

        Written(AnnotationMirror mirror) {
            this.mirror = mirror;
        }

        @Override
        public Optional<Object> given(String attribute) {
            return Optional.ofNullable(normalized(explicitValue(mirror, attribute)));
        }

        /** The value written, else the default; where neither resolves (javac reports that), an empty one. */
        @Override
        public Object value(String attribute) {
            ExecutableElement declared = attribute(attribute);
            Object value = given(attribute).orElseGet(() -> normalized(declared.getDefaultValue()));
            if (value != null) {
                return value;
            }
            return switch (declared.getReturnType().getKind()) {
                case ARRAY -> List.of();
                case BOOLEAN -> Boolean.FALSE;
                case INT, LONG, SHORT, BYTE, CHAR -> 0;
                case FLOAT, DOUBLE -> 0.0;
                default -> "";
            };
        }

        private ExecutableElement attribute(String name) {
            for (Element e : mirror.getAnnotationType().asElement().getEnclosedElements()) {
                if (e instanceof ExecutableElement method && method.getSimpleName().contentEquals(name)) {
                    return method;
                }
            }
            throw new IllegalArgumentException("@" + mirror.getAnnotationType() + " has no attribute " + name);
        }

        /** Strings, numbers and booleans as they are, enum constants by name, arrays as lists; unresolved: null. */
        private static Object normalized(AnnotationValue value) {
            if (value == null) {
                return null;
            }
            Object v = value.getValue();
            if (v instanceof String) {
                // javac's placeholder for a constant it could not resolve is a String too; a real one prints in source
                // form, quoted (AnnotationValue.toString's contract)
                return value.toString().startsWith("\"") ? v : null;
            }
            if (v instanceof Number || v instanceof Boolean) {
                return v;
            }
            if (v instanceof VariableElement constant) {
                return constant.getSimpleName().toString();
            }
            if (v instanceof List<?> items) {
                return items.stream().map(item -> normalized((AnnotationValue) item)).filter(Objects::nonNull).toList();
            }
            return null;
        }
    }
}
