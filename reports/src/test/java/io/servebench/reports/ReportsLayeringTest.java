package io.servebench.reports;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The packages of {@code reports} by concern, each importing only those below it: rendering on top, then
 * comparisons, the JMH JSON format and the journal, statistics, and the result model at the bottom.
 */
class ReportsLayeringTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.servebench");

    @Test
    void concernsImportOnlyDownwards() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("rendering").definedBy("io.servebench.reports")
                .layer("comparisons").definedBy("io.servebench.compare")
                .layer("JMH JSON").definedBy("io.servebench.results.jmh")
                .layer("journal").definedBy("io.servebench.results.journal")
                .layer("statistics").definedBy("io.servebench.stats")
                .layer("model").definedBy("io.servebench.results")
                .whereLayer("rendering").mayNotBeAccessedByAnyLayer()
                .whereLayer("comparisons").mayOnlyBeAccessedByLayers("rendering")
                .whereLayer("JMH JSON").mayOnlyBeAccessedByLayers("rendering", "comparisons")
                .whereLayer("journal").mayNotBeAccessedByAnyLayer()
                .whereLayer("statistics").mayOnlyBeAccessedByLayers("rendering", "comparisons", "JMH JSON")
                .because("reports are rendered from results, never the other way round")
                .check(MAIN);
    }

    @Test
    void noCycles() {
        slices().matching("io.servebench.(**)").should().beFreeOfCycles().check(MAIN);
    }
}
