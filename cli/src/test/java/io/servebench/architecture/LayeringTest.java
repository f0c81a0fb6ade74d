package io.servebench.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packages of the command line and of every module below it (the runner, engines, metrics, the load generator,
 * calibration, the simulator, the wire layer: this test runs in the top module, where all of them are on the class
 * path) import only downwards, along the data flow: a study is read, planned, its engines started, its workload sent by the load
 * generator and the records aggregated into metrics; the simulated engine and the ground-truth server sit below
 * the load generator, the wire layer below everything that serves or sends HTTP, and the vocabulary's datasets and
 * flags, which the simulated engine reads too, and the names of what is measured, below them all. The processor and the
 * command line sit on top and nothing imports them. A new import that points up fails here, naming the class and
 * the dependency.
 */
class LayeringTest {

    /** The layers from top to bottom: each may import the ones after it, never one before it. */
    static final List<String> LAYERS = List.of("cli", "runner", "tuning", "execution", "plan", "study", "loadcheck", "calibration", "engine", "metrics", "load",
            "http", "sim", "truth", "wire", "workload", "flags", "measure");

    /** Entry points beside the command line: the annotation processor, which javac loads. */
    static final List<String> ENTRY_POINTS = List.of("processor");

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // the runner's test jar (its studies and fixtures, a deliberate back edge among them) is a jar, not test-classes
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("io.servebench");

    static ArchRule layering() {
        LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String layer : concat(ENTRY_POINTS, LAYERS)) {
            layers = layers.layer(layer).definedBy("io.servebench." + layer + "..");
        }
        for (String entry : ENTRY_POINTS) {
            layers = layers.whereLayer(entry).mayNotBeAccessedByAnyLayer();
        }
        layers = layers.whereLayer(LAYERS.get(0)).mayNotBeAccessedByAnyLayer();
        for (int i = 1; i < LAYERS.size(); i++) {
            layers = layers.whereLayer(LAYERS.get(i)).mayOnlyBeAccessedByLayers(
                    concat(ENTRY_POINTS, LAYERS.subList(0, i)).toArray(String[]::new));
        }
        return layers.because("packages import only downwards along the data flow (DESIGN.md, docs/architecture.md)");
    }

    @Test
    void packagesImportOnlyDownwards() {
        assertThat(MAIN.containPackage("io.servebench.runner")).as("the runner's classes were found").isTrue();
        assertThat(MAIN.containPackage("io.servebench.sim")).as("the simulator's classes were found").isTrue();
        assertThat(MAIN.containPackage("io.servebench.wire.http")).as("the wire layer's classes were found").isTrue();
        layering().check(MAIN);
    }

    @Test
    void anImportThatPointsUpIsCaught() {
        // a class of the load layer that knows the Runner: the shape of every cycle this test exists to stop
        JavaClasses withBackEdge = new ClassFileImporter().importClasses(io.servebench.load.fixture.BackEdge.class,
                io.servebench.runner.Runner.class);
        EvaluationResult result = layering().evaluate(withBackEdge);
        assertThat(result.hasViolation()).isTrue();
        assertThat(String.join("\n", result.getFailureReport().getDetails()))
                .contains("io.servebench.load.fixture.BackEdge").contains("io.servebench.runner.Runner");
    }

    @Test
    void noPackageOfTheSimulatorIsLeftInTheRunner() {
        assertThat(MAIN.containPackage("io.servebench.engine.sim")).isFalse();
        assertThat(MAIN.containPackage("io.servebench.engine.truth")).isFalse();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
