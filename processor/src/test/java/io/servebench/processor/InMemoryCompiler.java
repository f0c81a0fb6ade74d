package io.servebench.processor;

import io.servebench.annotations.ServingBenchmark;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Compiles Java sources held in strings with {@link StudyProcessor}, keeping every output in memory. */
public final class InMemoryCompiler {

    private static final Pattern TYPE_NAME = Pattern.compile("(?:class|interface|enum|record)\\s+(\\w+)");
    private static final Pattern PACKAGE = Pattern.compile("package\\s+([\\w.]+)\\s*;");

    /** What one compilation produced. */
    public record Result(boolean success, List<Diagnostic<? extends JavaFileObject>> diagnostics, Map<String, byte[]> outputs,
                  String log) {

        List<Diagnostic<? extends JavaFileObject>> errors() {
            return diagnostics.stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).toList();
        }

        public List<String> errorMessages() {
            return errors().stream().map(d -> d.getMessage(Locale.ROOT)).toList();
        }

        List<String> notes() {
            return diagnostics.stream().filter(d -> d.getKind() == Diagnostic.Kind.NOTE)
                    .map(d -> d.getMessage(Locale.ROOT)).toList();
        }

        /** A resource or class written to the class output, by its relative path, as text. */
        public String output(String relativePath) {
            byte[] bytes = outputs.get(relativePath);
            return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private InMemoryCompiler() {
    }

    /** Compiles the sources (each a whole compilation unit) against harness-api. */
    public static Result compile(String... sources) {
        return compile(List.of(), sources);
    }

    /** As {@link #compile(String...)}, with {@code others} run beside the study processor. */
    static Result compile(List<javax.annotation.processing.Processor> others, String... sources) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager standard = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8);
        MemoryFileManager files = new MemoryFileManager(standard);
        List<JavaFileObject> units = new ArrayList<>();
        for (String source : sources) {
            units.add(new Source(source));
        }
        StringWriter log = new StringWriter();
        JavaCompiler.CompilationTask task = javac.getTask(log, files, diagnostics,
                List.of("-classpath", apiClassPath().toString()), null, units);
        List<javax.annotation.processing.Processor> processors = new ArrayList<>(List.of(new StudyProcessor()));
        processors.addAll(others);
        task.setProcessors(processors);
        boolean ok = task.call();
        return new Result(ok, diagnostics.getDiagnostics(), files.outputs(), log.toString());
    }

    /** Where the authoring annotations are: the only class path a study needs. */
    static Path apiClassPath() {
        try {
            return Path.of(ServingBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The 1-based line of the only line of {@code source} that contains {@code snippet}. */
    static long lineOf(String source, String snippet) {
        String[] lines = source.split("\n", -1);
        long found = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(snippet)) {
                if (found != -1) {
                    throw new IllegalArgumentException("\"" + snippet + "\" is on more than one line of the test source");
                }
                found = i + 1;
            }
        }
        if (found == -1) {
            throw new IllegalArgumentException("\"" + snippet + "\" is not in the test source");
        }
        return found;
    }

    private static final class Source extends SimpleJavaFileObject {
        private final String text;

        Source(String text) {
            super(URI.create("string:///" + pathOf(text)), Kind.SOURCE);
            this.text = text;
        }

        private static String pathOf(String text) {
            Matcher type = TYPE_NAME.matcher(text);
            if (!type.find()) {
                throw new IllegalArgumentException("test source declares no type:\n" + text);
            }
            Matcher pkg = PACKAGE.matcher(text);
            String dir = pkg.find() ? pkg.group(1).replace('.', '/') + "/" : "";
            return dir + type.group(1) + ".java";
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    /** Keeps class files and resources written to the class output in memory. */
    private static final class MemoryFileManager extends ForwardingJavaFileManager<JavaFileManager> {
        private final Map<String, Output> outputs = new HashMap<>();

        MemoryFileManager(JavaFileManager delegate) {
            super(delegate);
        }

        Map<String, byte[]> outputs() {
            Map<String, byte[]> written = new HashMap<>();
            outputs.forEach((path, out) -> {
                if (out.bytes != null) {
                    written.put(path, out.bytes);
                }
            });
            return written;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                                   FileObject sibling) {
            return output(className.replace('.', '/') + kind.extension, kind);
        }

        @Override
        public FileObject getFileForOutput(Location location, String packageName, String relativeName, FileObject sibling) {
            String dir = packageName.isEmpty() ? "" : packageName.replace('.', '/') + "/";
            return output(dir + relativeName, JavaFileObject.Kind.OTHER);
        }

        @Override
        public boolean isSameFile(FileObject a, FileObject b) {
            return a.toUri().equals(b.toUri());
        }

        /** The same object for the same path, so that what the processor wrote can be read back. */
        private Output output(String path, JavaFileObject.Kind kind) {
            return outputs.computeIfAbsent(path, p -> new Output(p, kind));
        }
    }

    private static final class Output extends SimpleJavaFileObject {
        private final String path;
        private byte[] bytes;

        Output(String path, Kind kind) {
            super(URI.create("mem:///" + path), kind);
            this.path = path;
        }

        @Override
        public OutputStream openOutputStream() {
            return new ByteArrayOutputStream() {
                @Override
                public void close() {
                    bytes = toByteArray();
                }
            };
        }

        @Override
        public InputStream openInputStream() throws IOException {
            if (bytes == null) {
                throw new NoSuchFileException(path);
            }
            return new ByteArrayInputStream(bytes);
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) throws IOException {
            try (InputStream in = openInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
    }

    /** A study's first variant, the baseline: what most processor tests need besides the thing they check. */
    static final String BASELINE = "    @Baseline @Variant public void baseline() {}\n";

    /** A study class {@code demo.Demo} with the given class annotations and body. */
    static String study(String classAnnotations, String body) {
        return """
                package demo;

                import io.servebench.annotations.*;

                @ServingBenchmark(model = "m")
                %s
                public class Demo {
                %s
                }
                """.formatted(classAnnotations, body);
    }

    /** Compiles {@code source} and asserts exactly one error, containing {@code message}, on the line of {@code at}. */
    static void assertOneError(String source, String message, String at) {
        Result result = compile(source);
        org.assertj.core.api.Assertions.assertThat(result.errorMessages()).as(result.log()).hasSize(1);
        javax.tools.Diagnostic<? extends javax.tools.JavaFileObject> error = result.errors().get(0);
        org.assertj.core.api.Assertions.assertThat(error.getMessage(java.util.Locale.ROOT)).contains(message);
        org.assertj.core.api.Assertions.assertThat(error.getLineNumber())
                .as("line of %s in%n%s", error.getMessage(java.util.Locale.ROOT), source).isEqualTo(lineOf(source, at));
    }
}
