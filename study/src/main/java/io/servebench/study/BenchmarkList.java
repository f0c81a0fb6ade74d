package io.servebench.study;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The benchmarks the annotation processor listed: the resource {@value #RESOURCE}, plain UTF-8
 * text, one {@code binary.ClassName.method} a line, sorted. Every jar or class folder of studies on
 * the class path carries one.
 */
public final class BenchmarkList {

    /** Where the processor writes the list, relative to the class output. */
    public static final String RESOURCE = "META-INF/servebench/BenchmarkList";

    private BenchmarkList() {
    }

    /**
     * Every entry of every {@value #RESOURCE} that {@code loader} sees, sorted, each once. Blank
     * lines are skipped.
     *
     * @throws UncheckedIOException when a list cannot be read (the message names it)
     */
    public static List<String> read(ClassLoader loader) {
        TreeSet<String> entries = new TreeSet<>();
        try {
            Enumeration<URL> lists = loader.getResources(RESOURCE);
            while (lists.hasMoreElements()) {
                URL url = lists.nextElement();
                try (BufferedReader in = new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
                    in.lines().map(String::strip).filter(line -> !line.isEmpty()).forEach(entries::add);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read benchmark list " + url, e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot look up " + RESOURCE + " on the class path", e);
        }
        return List.copyOf(entries);
    }

    /** The class part of an entry: its binary class name. */
    public static String className(String entry) {
        return entry.substring(0, split(entry));
    }

    /** The method part of an entry: the variant's name. */
    public static String methodName(String entry) {
        return entry.substring(split(entry) + 1);
    }

    /**
     * The studies and variants the entries name, in the entries' order. Each class is loaded
     * (not initialised) through {@code loader} and read once with {@link StudyReader}.
     *
     * @throws IllegalArgumentException when an entry's class cannot be loaded, is not a study or
     *                                  has no variant of that name (the message names the entry)
     */
    public static List<Benchmark> resolve(Collection<String> entries, ClassLoader loader) {
        Map<String, StudyDescriptor> studies = new HashMap<>();
        List<Benchmark> benchmarks = new ArrayList<>(entries.size());
        for (String entry : entries) {
            StudyDescriptor study = studies.computeIfAbsent(className(entry), name -> load(entry, name, loader));
            VariantDescriptor variant = study.variant(methodName(entry)).orElseThrow(() -> new IllegalArgumentException(
                    "benchmark " + entry + ": study " + study.className() + " has no @Variant method "
                            + methodName(entry) + "; its variants are "
                            + study.variants().stream().map(VariantDescriptor::name).toList()
                            + " (is the benchmark list stale? recompile the study)"));
            benchmarks.add(new Benchmark(study, variant));
        }
        return List.copyOf(benchmarks);
    }

    private static StudyDescriptor load(String entry, String className, ClassLoader loader) {
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("benchmark " + entry + ": cannot load class " + className
                    + " (is the benchmark list stale? recompile the study)", e);
        }
        try {
            return StudyReader.read(type);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("benchmark " + entry + ": " + e.getMessage(), e);
        }
    }

    private static int split(String entry) {
        int dot = entry.lastIndexOf('.');
        if (dot <= 0 || dot == entry.length() - 1) {
            throw new IllegalArgumentException("malformed benchmark list entry \"" + entry
                    + "\"; expected fully.qualified.Class.method");
        }
        return dot;
    }
}
