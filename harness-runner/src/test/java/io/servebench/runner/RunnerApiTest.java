package io.servebench.runner;

import io.servebench.compare.BlockComparison;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The Runner API as a program or a test uses it: options built in code, the results returned as values. */
class RunnerApiTest {

    @Test
    void aStudyRunFromCodeReturnsItsBlocksMetricsAndComparisons(@TempDir Path dir) throws Exception {
        // short replies: each trial is its two seconds of load, not also the tail of 300-token answers
        RunOptions options = RunOptions.builder().include(SimStudy.class).param("requests", "8").param("warmup", "0")
                .param("dataset", "synthetic:in=fixed(200),out=fixed(40)")
                .settle(Duration.ZERO).outputDir(dir).progress(false).jmhPrimary("ttft.p99").build();
        StringWriter out = new StringWriter();
        List<String> events = new ArrayList<>();
        RunOutcome outcome = new Runner(options, new PrintWriter(out, true)).run(new RunListener() {
            @Override
            public void serverStarting(List<io.servebench.plan.Trial> trials) {
                events.add("server " + trials.size());
            }

            @Override
            public void trialStarting(io.servebench.plan.Trial trial) {
                events.add("start " + trial.id());
            }

            @Override
            public void trialFinished(io.servebench.plan.Trial trial, List<BlockResult> blocks) {
                events.add("end " + trial.id() + " " + blocks.size());
            }
        });

        assertThat(outcome.allTrialsRan()).isTrue();
        assertThat(outcome.outputDir()).isEqualTo(dir);
        assertThat(dir.resolve("results.json")).exists();
        com.fasterxml.jackson.databind.JsonNode ttft = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("results-ttft.p99.json").toFile());
        assertThat(ttft).hasSize(4).allSatisfy(e -> assertThat(e.get("primaryMetric").get("scoreUnit").asText()).isEqualTo("us/op"));
        assertThat(outcome.blocks()).hasSize(4);
        assertThat(outcome.blocks("mtp2")).extracting(b -> b.params().get("rate")).containsExactly("4", "8");
        for (BlockResult block : outcome.blocks()) {
            assertThat(block.repetitions()).singleElement().satisfies(r -> {
                assertThat(r.value(Metric.SUCCESSFUL_REQUESTS)).hasValue(8);
                assertThat(r.number(Metric.E2E_LATENCY, Stat.MEAN).orElseThrow()).isPositive();
            });
        }
        List<BlockComparison> comparisons = outcome.comparisons();
        assertThat(comparisons).hasSize(2).allSatisfy(c -> {
            assertThat(c.baseline().variant()).isEqualTo("baseline");
            assertThat(c.variant().variant()).isEqualTo("mtp2");
            assertThat(c.variant().params().get("rate")).isEqualTo(c.baseline().params().get("rate"));
            assertThat(c.comparison().estimate()).as("a per-request bootstrap interval").isNotNull();
        });
        // two server configurations (baseline, mtp2), two rates each, in running order
        assertThat(events).hasSize(2 + 4 * 2).startsWith("server 2");
        assertThat(events.stream().filter(e -> e.startsWith("end ")).allMatch(e -> e.endsWith(" 1"))).isTrue();
        // progress off: no per-trial lines
        assertThat(out.toString()).doesNotContain("requests...").contains("Starting s01");
    }

    @Test
    void aTrialIsPickedByItsKeyAndAStudyThatChoosesItsOwnTrialsRefusesThePick() {
        RunOptions.Builder all = RunOptions.builder().include(SimStudy.class).param("rate", "4", "8")
                .simulate(io.servebench.engine.EngineParams.Simulate.VIRTUAL);
        List<io.servebench.plan.Trial> trials = new Runner(all.build(), new PrintWriter(new StringWriter())).plan().trials();
        assertThat(trials).hasSizeGreaterThan(1);
        io.servebench.plan.Trial last = trials.get(trials.size() - 1);
        io.servebench.plan.TrialPlan picked = new Runner(all.trial(last.key()).build(), new PrintWriter(new StringWriter()))
                .plan();
        // the same trial, its running number that of the whole plan, and only the blocks it measures
        assertThat(picked.trials()).containsExactly(last);
        assertThat(picked.blocks()).isNotEmpty().allMatch(b -> b.trial().equals(last));

        RunOptions tuned = RunOptions.builder().include(SimTuning.class).trial(last.key())
                .simulate(io.servebench.engine.EngineParams.Simulate.VIRTUAL).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Runner(tuned, new PrintWriter(new StringWriter())).plan())
                .isInstanceOf(RunnerException.class).hasMessageContaining("is a tuning study, which chooses its trials as it"
                        + " runs: drop --trial");
    }

    @Test
    void aMetricNoResultCouldHaveIsRefusedBeforeAnythingRuns() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RunOptions.builder().jmhPrimary("ttft.p42").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--jmh-primary ttft.p42: no such metric");
    }

    /** A folder that cannot be written is refused before anything starts, saying why in words, not as a path again. */
    @Test
    void aResultsFolderThatCannotBeWrittenIsRefusedWithItsReason(@TempDir Path dir) throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("afile"), "");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Runner.requireWritable(file))
                .hasMessage("cannot write the results to " + file + " (a file of that name is in the way); give a folder"
                        + " you can write with -o");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Runner.requireWritable(file.resolve("sub")))
                .hasMessage("cannot write the results to " + file.resolve("sub") + " (Not a directory); give a folder"
                        + " you can write with -o");
    }
    /**
     * A run folder that fills up mid-run: the journal's append fails (its file here is {@code /dev/full}, which answers
     * every write with ENOSPC), the run stops with one message that names the file, the reason, what was kept and the
     * command that goes on, and writes every report it can, each whole: one that cannot be written leaves the earlier
     * one as it was, not emptied.
     */
    @Test
    void aFolderThatFillsUpStopsTheRunSayingWhatWasKeptAndLeavesNoReportCut(@TempDir Path dir) throws Exception {
        Path full = Path.of("/dev/full");
        org.assertj.core.api.Assumptions.assumeThat(java.nio.file.Files.isWritable(full)).as("/dev/full").isTrue();
        java.nio.file.Files.createSymbolicLink(dir.resolve("journal.jsonl"), full);
        java.nio.file.Files.writeString(dir.resolve("summary.md"), "an earlier run's summary");
        // a report that cannot be written: where its partial copy goes, a folder that is not empty
        java.nio.file.Files.createDirectories(dir.resolve(".summary.md.partial").resolve("in-the-way"));
        RunOptions options = RunOptions.builder().include(SimStudy.class).param("requests", "8").param("warmup", "0")
                .simulate(io.servebench.engine.EngineParams.Simulate.VIRTUAL).outputDir(dir).progress(false).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Runner(options, new PrintWriter(new StringWriter(),
                        true)).run())
                .isInstanceOf(RunFolderException.class)
                .hasMessageStartingWith("cannot append to " + dir.resolve("journal.jsonl") + ": No space left on device."
                        + " The run stopped there; what it measured before is kept in " + dir)
                .hasMessageContaining("Its reports: cannot write summary.md in " + dir + ": ")
                .hasMessageContaining("continue with: ").hasMessageEndingWith("--resume " + dir);
        assertThat(java.nio.file.Files.readString(dir.resolve("summary.md"))).isEqualTo("an earlier run's summary");
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("results.json").toFile()))
                .as("written whole").isNotNull();
        assertThat(dir.resolve("report.html")).isNotEmptyFile();
        try (var names = java.nio.file.Files.list(dir)) {
            assertThat(names.map(f -> f.getFileName().toString())).filteredOn(n -> n.endsWith(".partial"))
                    .containsExactly(".summary.md.partial");
        }
    }
}
