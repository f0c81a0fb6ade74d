package io.servebench.archetype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The way a new user starts, end to end, on what this build made: ServeBench's artifacts installed into a throw-away
 * local repository, a project generated from the archetype, built against that repository (its only remote a file
 * copy of the build's own local repository, so no network is reached), the starter study run from
 * {@code target/benchmarks.jar} on the simulated engine, and {@code mvn -o test} run in it with the JUnit engine.
 */
class ArchetypeIT {

    private static final String VERSION = System.getProperty("servebench.it.version");
    private static final Path ROOT = Path.of(System.getProperty("servebench.it.root")).toAbsolutePath().normalize();
    private static final List<String> MODULES = List.of("harness-api", "vocabulary", "wire", "simulator", "reports", "loadgen", "metrics", "engines", "calibration", "study", "processor",
            "harness-runner",
            "cli", "harness-junit", "servebench-study-archetype");

    @Test
    void generateBuildRunAndTestAStudyProject(@TempDir Path tmp) throws Exception {
        Path repo = tmp.resolve("repo");
        install(repo);
        Path settings = settings(tmp, repo);
        Path work = Files.createDirectories(tmp.resolve("work"));

        maven(work, settings, "org.apache.maven.plugins:maven-archetype-plugin:3.4.0:generate",
                "-DarchetypeGroupId=io.servebench", "-DarchetypeArtifactId=servebench-study-archetype",
                "-DarchetypeVersion=" + VERSION, "-DgroupId=org.example", "-DartifactId=my-study", "-DinteractiveMode=false");
        Path project = work.resolve("my-study");
        assertThat(project.resolve("src/main/java/org/example/MyStudy.java")).exists();
        assertThat(project.resolve("README.md")).exists();

        // the README's first command, its study at one rate and 16 requests a trial to be quick
        maven(project, settings, "-q", "verify", "-Dservebench.param.rate=8", "-Dservebench.param.requests=16");
        assertThat(project.resolve("target/benchmarks.jar")).exists();

        String list = run(project, javaBin(), "-jar", "target/benchmarks.jar", "-l");
        assertThat(list.lines()).containsExactly("org.example.MyStudy.baseline", "org.example.MyStudy.mtp");
        run(project, javaBin(), "-jar", "target/benchmarks.jar", "--simulate", "--quick", "-p", "rate=8", "-o", "results/first");
        Path results = project.resolve("results/first");
        JsonNode json = new ObjectMapper().readTree(results.resolve("results.json").toFile());
        assertThat(json).hasSize(2);
        json.forEach(block -> assertThat(block.get("benchmark").asText()).startsWith("org.example.MyStudy."));
        assertThat(Files.readString(results.resolve("summary.md"))).contains("MyStudy.mtp", "speculative-decoding");

        // offline: the first build left everything the tests need in the throw-away repository
        Path report = project.resolve("target/surefire-reports/TEST-org.example.MyStudy.xml");
        Files.delete(report);
        maven(project, settings, "-o", "-q", "test", "-Dservebench.param.rate=8", "-Dservebench.param.requests=16");
        Matcher names = Pattern.compile("testcase name=\"([^\"]*)\"").matcher(Files.readString(report));
        List<String> tests = new ArrayList<>();
        while (names.find()) {
            tests.add(names.group(1));
        }
        assertThat(tests).containsExactly("baseline · constant 8 req/s", "mtp · constant 8 req/s");
        assertThat(project.resolve("target/servebench/MyStudy/results.json")).exists();
    }

    /** Puts ServeBench's jars and poms where a local repository keeps them, as {@code mvn install} would. */
    private static void install(Path repo) throws IOException {
        copy(ROOT.resolve("pom.xml"), repo, "servebench-parent", "pom");
        for (String module : MODULES) {
            copy(ROOT.resolve(module).resolve("pom.xml"), repo, module, "pom");
            copy(ROOT.resolve(module).resolve("target").resolve(module + "-" + VERSION + ".jar"), repo, module, "jar");
        }
    }

    private static void copy(Path file, Path repo, String artifactId, String extension) throws IOException {
        assertThat(file).as("built by this reactor").exists();
        Path dir = Files.createDirectories(repo.resolve("io/servebench").resolve(artifactId).resolve(VERSION));
        Files.copy(file, dir.resolve(artifactId + "-" + VERSION + "." + extension));
    }

    /** A local repository of its own, and the build's local repository (file://, no network) as the only remote. */
    private static Path settings(Path tmp, Path repo) throws IOException {
        Path buildRepo = Path.of(System.getProperty("servebench.it.localRepository")).toAbsolutePath();
        return Files.writeString(tmp.resolve("settings.xml"), """
                <settings>
                  <localRepository>%s</localRepository>
                  <mirrors>
                    <mirror><id>build-repository</id><mirrorOf>*</mirrorOf><url>%s</url></mirror>
                  </mirrors>
                </settings>
                """.formatted(repo.toAbsolutePath(), buildRepo.toUri()));
    }

    private static void maven(Path dir, Path settings, String... args) throws Exception {
        String mvn = Path.of(System.getProperty("servebench.it.mavenHome"), "bin", "mvn").toString();
        List<String> command = new ArrayList<>(List.of(mvn, "-B", "-ntp", "-s", settings.toString()));
        command.addAll(List.of(args));
        run(dir, command.toArray(String[]::new));
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs a command in {@code dir} and returns its output; fails with the output when it fails. */
    private static String run(Path dir, String... command) throws Exception {
        Path out = Files.createTempFile("archetype-it", ".log");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly();
        }
        String output = Files.readString(out);
        Files.delete(out);
        assertThat(ended && p.exitValue() == 0).as("%s in %s:%n%s", String.join(" ", command), dir, output).isTrue();
        return output;
    }
}
