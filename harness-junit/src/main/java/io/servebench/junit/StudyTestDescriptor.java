package io.servebench.junit;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;

import java.util.List;

/**
 * One study class: a container of its server configurations. It runs as one ServeBench run of its selected variants,
 * into a run folder of its own.
 */
final class StudyTestDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "study";

    private final Class<?> study;
    private final List<String> variants;
    private final List<String> trials;
    private final String problem;
    private final boolean oneTest;

    /**
     * @param variants the variants selected, all of them when empty
     * @param trials   the keys of the trials selected of them, all of them when empty
     * @param problem  why the study cannot be planned (the checker's problems), {@code null} when it can
     * @param oneTest  whether the study is a test itself rather than a container of trials: a tuning study, whose
     *                 trials are chosen as it runs, or one that cannot be planned (a container without tests is
     *                 dropped by the platform, and would vanish without a word)
     */
    StudyTestDescriptor(UniqueId id, Class<?> study, List<String> variants, List<String> trials, String problem,
                        boolean oneTest) {
        super(id, study.getSimpleName(), ClassSource.from(study));
        this.study = study;
        this.variants = List.copyOf(variants);
        this.trials = List.copyOf(trials);
        this.problem = problem;
        this.oneTest = oneTest || problem != null;
    }

    @Override
    public Type getType() {
        return oneTest ? Type.TEST : Type.CONTAINER;
    }

    Class<?> study() {
        return study;
    }

    List<String> variants() {
        return variants;
    }

    List<String> trials() {
        return trials;
    }

    /** Why the study cannot run, {@code null} when it can. */
    String problem() {
        return problem;
    }
}
