package io.servebench.processor;

import io.servebench.study.BenchmarkList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

import static org.assertj.core.api.Assertions.assertThat;

/** Compiles to a real class folder twice, the second time only some of the classes, as an IDE or Maven would. */
class StudyProcessorIncrementalTest {

    private static final String A = """
            package demo;
            import io.servebench.annotations.*;
            @ServingBenchmark(model = "m")
            public class A {
                @Baseline @Variant public void one() {}
                @Variant public void two() {}
            }
            """;

    private static final String B = """
            package demo;
            import io.servebench.annotations.*;
            @ServingBenchmark(model = "m")
            public class B {
                @Variant public void first() {}
            }
            """;

    private static final String B_CHANGED = """
            package demo;
            import io.servebench.annotations.*;
            @ServingBenchmark(model = "m")
            public class B {
                @Variant public void renamed() {}
            }
            """;

    @TempDir
    Path dir;

    @Test
    void recompilingOneClassKeepsTheEntriesOfTheOthers() throws IOException {
        Path out = dir.resolve("classes");
        compile(out, source("A", A), source("B", B));
        assertThat(list(out)).containsExactly("demo.A.one", "demo.A.two", "demo.B.first");

        compile(out, source("B", B_CHANGED));

        assertThat(list(out)).containsExactly("demo.A.one", "demo.A.two", "demo.B.renamed");
    }

    @Test
    void entriesOfClassesThatNoLongerExistAreDropped() throws IOException {
        Path out = dir.resolve("classes");
        compile(out, source("A", A), source("B", B));
        Files.delete(out.resolve("demo/A.class"));

        compile(out, source("B", B));

        assertThat(list(out)).containsExactly("demo.B.first");
    }

    private Path source(String name, String text) throws IOException {
        Path file = dir.resolve("src/demo/" + name + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private static List<String> list(Path out) throws IOException {
        return Files.readAllLines(out.resolve(BenchmarkList.RESOURCE), StandardCharsets.UTF_8);
    }

    /** Compiles the sources into {@code out}, with {@code out} (the earlier output) on the class path. */
    private static void compile(Path out, Path... sources) throws IOException {
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(out));
            files.setLocationFromPaths(StandardLocation.CLASS_PATH, List.of(InMemoryCompiler.apiClassPath(), out));
            JavaCompiler.CompilationTask task = javac.getTask(null, files, diagnostics, List.of(), null,
                    files.getJavaFileObjectsFromPaths(List.of(sources)));
            task.setProcessors(List.of(new StudyProcessor()));
            assertThat(task.call()).as(diagnostics.getDiagnostics().toString()).isTrue();
        }
    }
}
