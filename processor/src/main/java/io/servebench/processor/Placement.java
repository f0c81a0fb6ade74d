package io.servebench.processor;

import io.servebench.study.StudyClass;

import java.util.List;
import java.util.Set;
import javax.annotation.processing.Messager;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;

import static io.servebench.processor.SourceStudyClass.mirror;

/**
 * Where the annotations stand, which no study's descriptor shows: an annotation in a place it has no effect (a
 * {@code @Variant} outside a study, a {@code @Baseline} without {@code @Variant}, ...) and variant methods of the wrong
 * shape are errors on the element.
 */
final class Placement {

    private final Messager messager;
    private final Elements elements;

    Placement(Messager messager, Elements elements) {
        this.messager = messager;
        this.elements = elements;
    }

    /** Annotations in places where they would be silently ignored, and variant methods of the wrong shape. */
    void check(RoundEnvironment round) {
        for (Element element : annotated(round, "Variant")) {
            AnnotationMirror variant = mirror(element, "Variant");
            if (!isStudy(element.getEnclosingElement())) {
                error("variant outside a study class: " + element.getEnclosingElement().getSimpleName()
                        + " has no @ServingBenchmark; expected @Variant methods only in a study class", element, variant);
                continue;
            }
            ExecutableElement method = (ExecutableElement) element;
            String name = method.getSimpleName() + "()";
            if (!method.getModifiers().contains(Modifier.PUBLIC)) {
                error("variant method " + name + " is not public; expected a public method", method, variant);
            }
            if (method.getModifiers().contains(Modifier.STATIC)) {
                error("variant method " + name + " is static; expected an instance method", method, variant);
            }
            if (method.getReturnType().getKind() != TypeKind.VOID) {
                error("variant method " + name + " returns " + method.getReturnType() + "; expected void", method, variant);
            }
            if (!method.getParameters().isEmpty()) {
                error("variant method " + method.getSimpleName() + " has " + method.getParameters().size()
                        + " parameter(s); expected none", method, variant);
            }
        }
        for (String marker : List.of("Baseline", "Recommended")) {
            for (Element element : annotated(round, marker)) {
                if (mirror(element, "Variant") == null) {
                    error("@" + marker + " on " + element.getSimpleName() + "(), which has no @Variant; expected @" + marker
                            + " together with @Variant", element, mirror(element, marker));
                }
            }
        }
        for (Element element : annotated(round, "Param")) {
            if (!isStudy(element.getEnclosingElement())) {
                error("@Param outside a study class: " + element.getEnclosingElement().getSimpleName()
                        + " has no @ServingBenchmark; expected @Param fields only in a study class", element, mirror(element, "Param"));
            }
        }
        for (Element element : annotated(round, "Workload")) {
            if (element.getKind() == ElementKind.METHOD && mirror(element, "Variant") == null) {
                error("@Workload on " + element.getSimpleName() + "(), which has no @Variant; expected it on a variant method or the study class",
                        element, mirror(element, "Workload"));
            }
        }
        for (String annotation : List.of("Slo", "ServerOptions")) {
            for (Element element : annotated(round, annotation)) {
                checkPlacedOnStudyOrVariant(element, annotation);
            }
        }
        for (String onClass : List.of("Workload", "Engine")) {
            for (Element element : annotated(round, onClass)) {
                if (element.getKind() != ElementKind.METHOD && !isStudy(element)) {
                    error("@" + onClass + " on " + element.getSimpleName() + ", which has no @ServingBenchmark; expected it on a study class",
                            element, mirror(element, onClass));
                }
            }
        }
    }

    /**
     * An {@code @Slo} or {@code @ServerOptions} belongs on a study class or a variant method (its values are the
     * checker's to judge).
     */
    private void checkPlacedOnStudyOrVariant(Element element, String annotation) {
        boolean placed = element.getKind() == ElementKind.METHOD ? mirror(element, "Variant") != null : isStudy(element);
        if (!placed) {
            error("@" + annotation + " on " + element.getSimpleName() + ", which is neither a study class nor a @Variant method; "
                    + "expected it on one of those", element, mirror(element, annotation));
        }
    }

    static boolean isStudy(Element element) {
        return element != null && (element.getKind().isClass() || element.getKind().isInterface())
                && mirror(element, "ServingBenchmark") != null;
    }

    private Set<? extends Element> annotated(RoundEnvironment round, String simpleName) {
        TypeElement annotation = annotation(simpleName);
        return annotation == null ? Set.of() : round.getElementsAnnotatedWith(annotation);
    }

    private TypeElement annotation(String simpleName) {
        return elements.getTypeElement(StudyClass.annotationName(simpleName));
    }

    private void error(String message, Element element, AnnotationMirror mirror) {
        messager.printMessage(Diagnostic.Kind.ERROR, message, element, mirror);
    }
}
