package io.servebench.study;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A loaded study class for {@link StudyReader}: its members in declaration order ({@link DeclarationOrder}: reflection
 * makes no promise of order), its annotations read through reflection.
 */
final class ReflectedStudyClass implements StudyClass<ReflectedStudyClass.Member> {

    private final Class<?> type;
    private final DeclarationOrder order;
    /** Read once, with this class: the reader asks for it for each member kind and each class-level annotation. */
    private final Optional<StudyClass<Member>> superclass;

    ReflectedStudyClass(Class<?> type) {
        this.type = type;
        this.order = DeclarationOrder.of(type);
        Class<?> parent = type.getSuperclass();
        this.superclass = parent == null || parent == Object.class ? Optional.empty()
                : Optional.of(new ReflectedStudyClass(parent));
    }

    /** A declared field or method. */
    record Member(String name, String typeName, AnnotatedElement element) implements StudyMember {
        @Override
        public Optional<AnnotationValues> annotation(String simpleName) {
            return values(element, simpleName);
        }
    }

    @Override
    public String binaryName() {
        return type.getName();
    }

    @Override
    public Optional<AnnotationValues> annotation(String simpleName) {
        return values(type, simpleName);
    }

    @Override
    public List<Member> fields() {
        return Arrays.stream(type.getDeclaredFields())
                .sorted(Comparator.comparingInt(f -> order.fields().indexOf(f.getName())))
                .map(f -> new Member(f.getName(), typeName(f), f)).toList();
    }

    @Override
    public List<Member> methods() {
        return Arrays.stream(type.getDeclaredMethods())
                .sorted(Comparator.comparingInt(m -> order.methods().indexOf(m.getName())))
                .map(m -> new Member(m.getName(), m.getReturnType().getName(), m)).toList();
    }

    @Override
    public Optional<StudyClass<Member>> superclass() {
        return superclass;
    }

    private static String typeName(Field field) {
        Class<?> t = field.getType();
        return t.isPrimitive() ? t.getName() : t == String.class ? "String" : t.getTypeName();
    }

    private static Optional<AnnotationValues> values(AnnotatedElement element, String simpleName) {
        return Arrays.stream(element.getAnnotations())
                .filter(a -> a.annotationType().getName().equals(StudyClass.annotationName(simpleName))).findFirst()
                .map(Reflected::new);
    }

    /** An annotation's values; one equal to the attribute's default counts as left out. */
    private record Reflected(Annotation annotation) implements AnnotationValues {

        @Override
        public Optional<Object> given(String attribute) {
            Method m = attribute(attribute);
            Object value = invoke(m);
            return Objects.deepEquals(value, m.getDefaultValue()) ? Optional.empty() : Optional.of(normalized(value));
        }

        @Override
        public Object value(String attribute) {
            return normalized(invoke(attribute(attribute)));
        }

        private Method attribute(String name) {
            try {
                return annotation.annotationType().getMethod(name);
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException("@" + annotation.annotationType().getSimpleName() + " has no attribute "
                        + name, e);
            }
        }

        private Object invoke(Method m) {
            try {
                return m.invoke(annotation);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read @" + annotation.annotationType().getSimpleName() + "."
                        + m.getName(), e);
            }
        }

        /** Arrays as lists, enum constants by name: the form the annotation processor's values take too. */
        private static Object normalized(Object value) {
            if (value.getClass().isArray()) {
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < Array.getLength(value); i++) {
                    items.add(normalized(Array.get(value, i)));
                }
                return items;
            }
            return value instanceof Enum<?> constant ? constant.name() : value;
        }
    }
}
