package io.servebench.junit;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/**
 * The JUnit engine runs studies through the Runner API only: the runner's public types, the plan and result values
 * they hand out, the annotations and the engine options a run is built with; never the planner, the study model,
 * the engine layer, the journal or anything else of the harness's inside.
 */
class RunnerApiOnlyTest {

    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.servebench.junit");

    @Test
    void theJUnitEngineUsesTheRunnerApiOnly() {
        DescribedPredicate<JavaClass> api = JavaClass.Predicates.resideInAnyPackage("io.servebench.junit..",
                        "io.servebench.runner", "io.servebench.annotations", "io.servebench.results", "java..",
                        "org.junit.platform..")
                // the values the API hands out and takes
                .or(HasName.Predicates.nameMatching("io\\.servebench\\.plan\\.(Trial|TrialPlan|ResultBlock|WorkloadParams)"))
                .or(HasName.Predicates.nameMatching("io\\.servebench\\.engine\\.EngineParams(\\$Simulate)?"))
                // the keys of a block's params, named once in the vocabulary
                .or(HasName.Predicates.nameMatching("io\\.servebench\\.workload\\.(WorkloadSetting|LoadOption)"))
                // the names a block's figures are keyed by, in the vocabulary
                .or(HasName.Predicates.nameMatching("io\\.servebench\\.measure\\.(Metric|Stat)"));
        ArchRule rule = classes().that().resideInAPackage("io.servebench.junit..").should().onlyDependOnClassesThat(api)
                .because("the Runner API is the engine's only way in (DESIGN.md, docs/architecture.md)");
        rule.check(ENGINE);
    }
}
