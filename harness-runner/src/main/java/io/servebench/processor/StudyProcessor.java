package io.servebench.processor;

import io.servebench.study.BenchmarkList;
import io.servebench.study.Location;
import io.servebench.study.Problem;
import io.servebench.study.StudyChecker;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.StudyReader;
import io.servebench.study.VariantDescriptor;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.NoSuchFileException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Messager;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

import static io.servebench.processor.SourceStudyClass.explicitValue;
import static io.servebench.processor.SourceStudyClass.mirror;

/**
 * Checks study classes as javac compiles them and lists their benchmarks.
 *
 * <p>Each {@code @ServingBenchmark} class is read from the element model into a
 * {@link StudyDescriptor} and checked with {@link StudyChecker}; each problem is reported as an
 * error on the annotation value at fault, so javac prints its file and line. Annotations used
 * where they have no effect (a {@code @Variant} outside a study, a {@code @Baseline} or {@code @Recommended} without
 * {@code @Variant}, ...) and variant methods or study classes of the wrong shape are errors too.
 *
 * <p>In the last round the processor writes {@value BenchmarkList#RESOURCE} to the class output.
 * Compilation may be incremental: entries of the previous list whose class is not compiled now and
 * still exists are kept; entries of recompiled or vanished classes are replaced by what this
 * compilation found.
 */
@SupportedAnnotationTypes("io.servebench.annotations.*")
public final class StudyProcessor extends AbstractProcessor {

    /** Binary names of every type compiled in this compilation, nested ones included. */
    private final Set<String> compiledTypes = new HashSet<>();
    /** Entries of the studies compiled in this compilation. */
    private final SortedSet<String> found = new TreeSet<>();
    private int studiesFound;

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        for (Element root : round.getRootElements()) {
            collectTypes(root);
        }
        if (round.processingOver()) {
            writeList();
            return false;
        }
        TypeElement study = annotation("ServingBenchmark");
        if (study == null) {
            // the authoring annotations are not on the class path, so nothing can use them
            return false;
        }
        for (Element element : round.getElementsAnnotatedWith(study)) {
            if (element instanceof TypeElement type) {
                processStudy(type);
            }
        }
        checkPlacement(round);
        return false;
    }

    private void collectTypes(Element element) {
        if (element instanceof TypeElement type) {
            compiledTypes.add(elements().getBinaryName(type).toString());
            for (Element member : type.getEnclosedElements()) {
                collectTypes(member);
            }
        }
    }

    private void processStudy(TypeElement type) {
        if (!type.getModifiers().contains(Modifier.PUBLIC)) {
            error("study class " + type.getSimpleName() + " is not public; expected a public class, which the runner loads by name",
                    type, mirror(type, "ServingBenchmark"));
        }
        if (type.getModifiers().contains(Modifier.ABSTRACT)) {
            error("study class " + type.getSimpleName() + " is abstract; expected a concrete class",
                    type, mirror(type, "ServingBenchmark"));
        }
        StudyElements study = read(type);
        for (Problem problem : StudyChecker.check(study.descriptor())) {
            report(problem, study);
        }
        studiesFound++;
        for (VariantDescriptor variant : study.descriptor().variants()) {
            found.add(study.descriptor().className() + "." + variant.name());
        }
    }

    /** A study descriptor and the elements its variants and params came from, index for index. */
    private record StudyElements(StudyDescriptor descriptor, TypeElement type, List<Element> variants,
                                 List<Element> params) {
    }

    private StudyElements read(TypeElement type) {
        SourceStudyClass source = new SourceStudyClass(type, elements());
        return new StudyElements(StudyReader.read(source), type,
                StudyReader.variants(source).stream().map(SourceStudyClass.Member::element).toList(),
                StudyReader.params(source).stream().map(SourceStudyClass.Member::element).toList());
    }

    private void report(Problem problem, StudyElements study) {
        Location where = problem.where();
        Element element = switch (where.kind()) {
            case CLASS -> study.type();
            case METHOD -> study.variants().get(where.ordinal());
            case FIELD -> study.params().get(where.ordinal());
        };
        AnnotationMirror mirror = where.annotation() == null ? null : mirror(element, where.annotation());
        AnnotationValue value = mirror == null || where.attribute() == null ? null : explicitValue(mirror, where.attribute());
        if (value != null && where.valueIndex() >= 0 && value.getValue() instanceof List<?> items
                && where.valueIndex() < items.size()) {
            value = (AnnotationValue) items.get(where.valueIndex());
        }
        messager().printMessage(Diagnostic.Kind.ERROR, problem.message(), element, mirror, value);
    }

    /** Annotations in places where they would be silently ignored, and variant methods of the wrong shape. */
    private void checkPlacement(RoundEnvironment round) {
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

    private void writeList() {
        SortedSet<String> entries = new TreeSet<>(found);
        boolean existed = keepEntriesOfOtherClasses(entries);
        if (entries.isEmpty() && !existed) {
            return;
        }
        try {
            FileObject list = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", BenchmarkList.RESOURCE);
            try (Writer out = list.openWriter()) {
                for (String entry : entries) {
                    out.write(entry);
                    out.write('\n');
                }
            }
        } catch (IOException e) {
            messager().printMessage(Diagnostic.Kind.ERROR, "cannot write " + BenchmarkList.RESOURCE + ": " + e);
            return;
        }
        messager().printMessage(Diagnostic.Kind.NOTE, "ServeBench: " + found.size() + " benchmark(s) in " + studiesFound
                + " study class(es) compiled now; " + entries.size() + " listed in " + BenchmarkList.RESOURCE);
    }

    /**
     * Adds the previous list's entries whose class is neither compiled now nor gone.
     *
     * @return whether a previous list existed
     */
    private boolean keepEntriesOfOtherClasses(SortedSet<String> entries) {
        try {
            FileObject previous = processingEnv.getFiler().getResource(StandardLocation.CLASS_OUTPUT, "", BenchmarkList.RESOURCE);
            try (BufferedReader in = new BufferedReader(previous.openReader(true))) {
                in.lines().map(String::strip).filter(this::stillListed).forEach(entries::add);
            }
            return true;
        } catch (FileNotFoundException | NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            messager().printMessage(Diagnostic.Kind.WARNING, "cannot read the previous " + BenchmarkList.RESOURCE
                    + " (" + e + "); it will list only the studies compiled now");
            return false;
        }
    }

    private boolean stillListed(String entry) {
        if (entry.isEmpty() || entry.indexOf('.') <= 0) {
            return false;
        }
        String className = BenchmarkList.className(entry);
        // nested classes are listed by binary name; the element lookup takes the canonical name
        return !compiledTypes.contains(className) && elements().getTypeElement(className.replace('$', '.')) != null;
    }

    private boolean isStudy(Element element) {
        return element != null && (element.getKind().isClass() || element.getKind().isInterface())
                && mirror(element, "ServingBenchmark") != null;
    }

    private Set<? extends Element> annotated(RoundEnvironment round, String simpleName) {
        TypeElement annotation = annotation(simpleName);
        return annotation == null ? Set.of() : round.getElementsAnnotatedWith(annotation);
    }

    private TypeElement annotation(String simpleName) {
        return elements().getTypeElement(SourceStudyClass.PACKAGE + simpleName);
    }

    private void error(String message, Element element, AnnotationMirror mirror) {
        messager().printMessage(Diagnostic.Kind.ERROR, message, element, mirror);
    }

    private Messager messager() {
        return processingEnv.getMessager();
    }

    private Elements elements() {
        return processingEnv.getElementUtils();
    }
}
