package io.servebench.processor;

import io.servebench.annotations.ServingBenchmark;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API is a named module: a study project on the module path compiles against it with
 * {@code requires io.servebench.annotations} and nothing else (JUnit, which {@code @Testable} comes from, stays
 * optional), and one that does not require it cannot see the annotations.
 */
class ApiModuleTest {

    private static final String STUDY = """
            package demo;

            import io.servebench.annotations.*;

            @ServingBenchmark(model = "Qwen/Qwen3-8B")
            @Workload(rate = 4, requests = 20)
            public class Study {
                @Baseline @Variant public void baseline() {}
            }
            """;

    @Test
    void aModularStudyProjectCompilesAgainstTheApiModuleAlone(@TempDir Path tmp) throws Exception {
        Compiled compiled = compile(tmp, "module demo { requires io.servebench.annotations; }");
        assertThat(compiled.exitCode()).as(compiled.log()).isZero();
        assertThat(tmp.resolve("out/demo/Study.class")).exists();
    }

    @Test
    void aModuleThatDoesNotRequireItCannotSeeTheAnnotations(@TempDir Path tmp) throws Exception {
        Compiled compiled = compile(tmp, "module demo { }");
        assertThat(compiled.exitCode()).isNotZero();
        assertThat(compiled.log()).contains("package io.servebench.annotations is not visible");
    }

    private record Compiled(int exitCode, String log) {
    }

    private static Compiled compile(Path tmp, String moduleInfo) throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/demo"));
        Files.writeString(tmp.resolve("src/module-info.java"), moduleInfo);
        Files.writeString(src.resolve("Study.java"), STUDY);
        // the API as this build produced it: its classes folder (an exploded module) or its jar
        Path api = Path.of(ServingBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("--module-path", api.toString(), "-proc:none", "-d",
                tmp.resolve("out").toString(), tmp.resolve("src/module-info.java").toString(),
                src.resolve("Study.java").toString()));
        // javac writes its diagnostics to the error stream
        int exit = javac.run(null, log, log, args.toArray(String[]::new));
        return new Compiled(exit, log.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
}
