package io.servebench.runner;

import io.servebench.study.BenchmarkList;
import io.servebench.study.StudyReader;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Which of the benchmarks on the class path a run's include patterns select, as JMH's {@code Runner} chooses. */
final class BenchmarkSelection {

    private BenchmarkSelection() {
    }

    /**
     * The benchmarks of {@code loader}'s benchmark lists and of the named study classes whose {@code Class.variant}
     * name contains a match of any of {@code includes} (all of them when there are none), sorted.
     *
     * @param studies study classes to add to the lists (binary names), read by reflection
     * @throws RunnerException when there are no benchmarks, a pattern is no regular expression or matches nothing
     */
    static List<String> select(List<String> includes, List<String> studies, ClassLoader loader) {
        TreeSet<String> listed = new TreeSet<>(BenchmarkList.read(loader));
        for (String study : studies) {
            try {
                StudyReader.read(Class.forName(study, false, loader)).variants()
                        .forEach(v -> listed.add(study + "." + v.name()));
            } catch (ClassNotFoundException | IllegalArgumentException e) {
                throw new RunnerException("study class " + study + " cannot be read: " + e.getMessage());
            }
        }
        List<String> all = List.copyOf(listed);
        if (all.isEmpty()) {
            throw new RunnerException("no benchmarks on the class path: was the study compiled with io.servebench:processor"
                    + " on the annotation processor path (META-INF/servebench/BenchmarkList is missing)? A pom that still"
                    + " names harness-runner there, where the processor lived before it became a module of its own,"
                    + " should name processor");
        }
        if (includes.isEmpty()) {
            return all;
        }
        List<String> selected = new ArrayList<>();
        for (String regex : includes) {
            Pattern pattern;
            try {
                pattern = Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new RunnerException("\"" + regex + "\" is not a regular expression: "
                        + e.getDescription() + " near index " + e.getIndex());
            }
            List<String> matched = all.stream().filter(b -> pattern.matcher(b).find()).toList();
            if (matched.isEmpty()) {
                throw new RunnerException("no benchmark matches \"" + regex + "\"; -l lists the "
                        + all.size() + " benchmarks");
            }
            matched.stream().filter(b -> !selected.contains(b)).forEach(selected::add);
        }
        return selected.stream().sorted().toList();
    }
}
