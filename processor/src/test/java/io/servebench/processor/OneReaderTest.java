package io.servebench.processor;

import io.servebench.study.StudyDescriptor;
import io.servebench.study.StudyReader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A study means the same at compile time and at run time: {@link StudyReader} reads the class javac compiles (through
 * {@link SourceStudyClass}, as the processor does) and the class it wrote (through reflection, as the runner and the
 * JUnit engine do) into equal descriptors, every annotation and attribute of the authoring API written once.
 */
class OneReaderTest {

    private static final String STUDY = """
            package demo;

            import io.servebench.annotations.*;

            @ServingBenchmark(model = "Qwen/Qwen3-8B", description = "every annotation, written")
            @Engine(value = "vllm", flags = {"--max-num-seqs=64", "--enable-prefix-caching"}, env = "HF_HOME=/models",
                    version = "0.17.1")
            @Workload(dataset = "synthetic-sharegpt", profile = Profile.POISSON, rate = 4, requests = 50, warmup = 5,
                    maxConcurrency = 8, api = "completions", extraBody = "{\\"top_k\\": 8}")
            @Slo(ttftMs = 500, tpotMs = 40, minAttainment = 0.9)
            @ServerOptions(maxModelLen = 8192, prefixCaching = ServerOptions.Toggle.ON)
            public class Everything {

                @Param({"64", "128"})
                public int seqs;

                @Param({"a", "b"})
                public String label;

                @Baseline
                @Variant(group = "g")
                public void baseline() {
                }

                @Recommended
                @Variant(group = "g", flags = "--max-num-seqs=${seqs}")
                @Workload(rate = 8, durationSeconds = 30)
                @Slo(e2eMs = 9000)
                @ServerOptions(maxNumSeqs = 32, prefixCaching = ServerOptions.Toggle.OFF)
                public void tuned() {
                }

                @Variant(group = "h", engine = "sglang", engineVersion = "0.5.9")
                public void other() {
                }
            }
            """;

    /**
     * A study that extends another: the variants and params of the class it extends, one redeclared in place, its own
     * after them; the {@code @Engine} it does not write, inherited; its own {@code @Workload} instead of the inherited.
     */
    private static final String EXTENDED = """
            package demo;

            import io.servebench.annotations.*;

            @ServingBenchmark(model = "Qwen/Qwen3-8B", description = "the same, and more")
            @Workload(dataset = "synthetic-sharegpt", rate = 2, requests = 20)
            public class Extended extends Everything {

                @Override
                @Variant(group = "h", engine = "sglang", flags = "--chunked-prefill-size=4096", engineVersion = "0.5.9")
                public void other() {
                }

                @Variant(group = "i")
                public void extra() {
                }
            }
            """;

    /** Reads each study javac compiles as the processor does. */
    @SupportedAnnotationTypes("io.servebench.annotations.ServingBenchmark")
    static final class Reading extends AbstractProcessor {
        final List<StudyDescriptor> read = new ArrayList<>();

        @Override
        public SourceVersion getSupportedSourceVersion() {
            return SourceVersion.latestSupported();
        }

        @Override
        public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
            for (TypeElement annotation : annotations) {
                for (Element study : round.getElementsAnnotatedWith(annotation)) {
                    read.add(StudyReader.read(new SourceStudyClass((TypeElement) study, processingEnv.getElementUtils())));
                }
            }
            return false;
        }
    }

    @Test
    void theSourceAndTheCompiledClassReadAsTheSameStudyAlsoWhenOneExtendsAnother() throws Exception {
        Reading reading = new Reading();
        InMemoryCompiler.Result result = InMemoryCompiler.compile(List.of(reading), STUDY, EXTENDED);
        assertThat(result.success()).as(result.errorMessages().toString()).isTrue();
        assertThat(reading.read).extracting(StudyDescriptor::className).containsExactlyInAnyOrder("demo.Everything",
                "demo.Extended");
        ClassLoader loader = loader(result.outputs());
        for (StudyDescriptor source : reading.read) {
            assertThat(StudyReader.read(loader.loadClass(source.className()))).isEqualTo(source);
        }

        StudyDescriptor extended = StudyReader.read(loader.loadClass("demo.Extended"));
        assertThat(extended.variants()).extracting(v -> v.name()).containsExactly("baseline", "tuned", "other", "extra");
        assertThat(extended.variants().get(2).flags()).containsExactly("--chunked-prefill-size=4096");
        assertThat(extended.params()).extracting(p -> p.name()).containsExactly("seqs", "label");
        assertThat(extended.engineFlags()).containsExactly("--max-num-seqs=64", "--enable-prefix-caching");
        assertThat(extended.workload().rate()).isEqualTo(2.0);
        assertThat(extended.workload().options()).isEmpty();
        assertThat(extended.slo().ttftMs()).isEqualTo(500.0);
    }

    @Test
    void everyAnnotationIsReadAsWritten() throws Exception {
        Reading reading = new Reading();
        InMemoryCompiler.Result result = InMemoryCompiler.compile(List.of(reading), STUDY);
        assertThat(result.success()).as(result.errorMessages().toString()).isTrue();
        assertThat(reading.read).hasSize(1);

        StudyDescriptor loaded = StudyReader.read(loader(result.outputs()).loadClass("demo.Everything"));

        assertThat(loaded).isEqualTo(reading.read.get(0));
        // and it is what was written, not two empty readings that agree
        assertThat(loaded.engineFlags()).containsExactly("--max-num-seqs=64", "--enable-prefix-caching");
        assertThat(loaded.workload().options()).containsEntry("maxConcurrency", "8").containsEntry("api", "completions");
        assertThat(loaded.slo().ttftMs()).isEqualTo(500.0);
        assertThat(loaded.serverOptions().prefixCaching()).isTrue();
        assertThat(loaded.params()).extracting(p -> p.name() + ":" + p.type()).containsExactly("seqs:int", "label:String");
        assertThat(loaded.variants()).extracting(v -> v.name()).containsExactly("baseline", "tuned", "other");
        assertThat(loaded.variants().get(1).serverOptions().prefixCaching()).isFalse();
        assertThat(loaded.variants().get(1).workload().options()).containsEntry("durationSeconds", "30");
        assertThat(loaded.variants().get(2).engineVersion()).isEqualTo("0.5.9");
    }

    /** Loads the compiled classes, their class files readable as resources (the declaration order is read there). */
    private ClassLoader loader(Map<String, byte[]> classes) {
        return new ClassLoader(getClass().getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] bytes = classes.get(name.replace('.', '/') + ".class");
                if (bytes == null) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, bytes, 0, bytes.length);
            }

            @Override
            public java.io.InputStream getResourceAsStream(String name) {
                byte[] bytes = classes.get(name);
                return bytes != null ? new java.io.ByteArrayInputStream(bytes) : super.getResourceAsStream(name);
            }
        };
    }
}
