package io.servebench.processor;

import io.servebench.study.Location;
import io.servebench.study.Problem;
import io.servebench.study.StudyChecker;
import io.servebench.study.StudyClass;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.StudyReader;

import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;

import static io.servebench.processor.SourceStudyClass.explicitValue;
import static io.servebench.processor.SourceStudyClass.mirror;

/**
 * Checks study classes as javac compiles them and lists their benchmarks: an adapter from javac to the study model.
 *
 * <p>Each {@code @ServingBenchmark} class is read by {@link StudyReader} as javac sees it ({@link SourceStudyClass}) and
 * checked with {@link StudyChecker}; each problem is reported as an error on the annotation value at fault, so javac
 * prints its file and line. Annotations where they have no effect and variant methods of the wrong shape are errors too
 * ({@link Placement}). In the last round the benchmark list is written ({@link ListWriter}).
 */
@SupportedAnnotationTypes("io.servebench.annotations.*")
public final class StudyProcessor extends AbstractProcessor {

    private ListWriter list;
    private Placement placement;

    @Override
    public synchronized void init(ProcessingEnvironment environment) {
        super.init(environment);
        list = new ListWriter(environment.getFiler(), environment.getMessager(), environment.getElementUtils());
        placement = new Placement(environment.getMessager(), environment.getElementUtils());
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        for (Element root : round.getRootElements()) {
            list.compiled(root);
        }
        if (round.processingOver()) {
            list.write();
            return false;
        }
        TypeElement study = elements().getTypeElement(StudyClass.annotationName("ServingBenchmark"));
        if (study == null) {
            // the authoring annotations are not on the class path, so nothing can use them
            return false;
        }
        for (Element element : round.getElementsAnnotatedWith(study)) {
            if (element instanceof TypeElement type) {
                processStudy(type);
            }
        }
        placement.check(round);
        return false;
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
        list.add(study.descriptor());
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
