package io.servebench.results.journal;

import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunJournalTest {

    @TempDir
    Path runDir;

    private static BlockResult trial(String variant, double latency) {
        return Fixtures.trial(variant, "g", false, Fixtures.BASE_FLAGS + " --x=" + variant, "8",
                List.of(Fixtures.repetition(latency, 1.0), Fixtures.repetition(latency + 0.01, 1.0)));
    }

    @Test
    void appendedTrialsReadBackEqual() throws IOException {
        BlockResult a = trial("a", 2.62);
        BlockResult failed = new BlockResult("C.b", "C", "b", "", false, Map.of("engine", "sim"), "b@8", "s2",
                List.of(), "engine exited with status 1; see logs/s2.log");
        try (RunJournal journal = RunJournal.open(runDir)) {
            journal.append(a);
            journal.append(failed);
        }

        List<BlockResult> read = RunJournal.read(runDir);
        assertThat(read).containsExactly(a, failed);
        assertThat(read.get(0).params().keySet()).containsExactly("engine", "model", "rate", "profile", "requests", "flags");
        assertThat(read.get(0).repetitions().get(1).distribution(Metric.E2E_LATENCY).orElseThrow().mean()).isEqualTo(2.63);
        assertThat(Files.readAllLines(runDir.resolve(RunJournal.FILE_NAME))).hasSize(2);
    }

    @Test
    void eachAppendIsOnDiskBeforeTheJournalIsClosed() throws IOException {
        try (RunJournal journal = RunJournal.open(runDir)) {
            journal.append(trial("a", 2.0));
            assertThat(RunJournal.read(journal.file())).hasSize(1);
            journal.append(trial("b", 2.1));
            assertThat(RunJournal.read(journal.file())).extracting(BlockResult::variant).containsExactly("a", "b");
        }
    }

    @Test
    void truncatedLastLineIsIgnoredAndCutOffOnReopen() throws IOException {
        try (RunJournal journal = RunJournal.open(runDir)) {
            journal.append(trial("a", 2.0));
        }
        Path file = runDir.resolve(RunJournal.FILE_NAME);
        String whole = Files.readString(file);
        // a crash halfway through writing the second line
        Files.writeString(file, whole.substring(0, whole.length() / 2), StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        assertThat(RunJournal.read(file)).extracting(BlockResult::variant).containsExactly("a");

        try (RunJournal journal = RunJournal.open(runDir)) {
            journal.append(trial("c", 2.2));
        }
        assertThat(RunJournal.read(runDir)).extracting(BlockResult::variant).containsExactly("a", "c");
        assertThat(Files.readString(file)).endsWith("\n");
    }

    @Test
    void corruptCompleteLineIsAnErrorNamingTheLine() throws IOException {
        try (RunJournal journal = RunJournal.open(runDir)) {
            journal.append(trial("a", 2.0));
        }
        Path file = runDir.resolve(RunJournal.FILE_NAME);
        Files.writeString(file, "{not json}\n", StandardOpenOption.APPEND);
        assertThatThrownBy(() -> RunJournal.read(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("line 2").hasMessageContaining(RunJournal.FILE_NAME);
    }

    @Test
    void missingJournalReadsAsEmpty() throws IOException {
        assertThat(RunJournal.read(runDir)).isEmpty();
        assertThat(RunJournal.readHeader(runDir)).isEmpty();
    }

    @Test
    void theHeaderReadsBackAndIsNoTrial() throws IOException {
        RunHeader header = new RunHeader("2026-12-01T17:00:00Z", List.of("--simulate", "-p", "rate=1,4", "qwen"),
                List.of("t01 s01-vllm-abc", "t02 s02-sglang-def"));
        try (RunJournal journal = RunJournal.open(runDir)) {
            assertThat(journal.isEmpty()).isTrue();
            journal.append(header);
            assertThat(journal.isEmpty()).isFalse();
            journal.append(trial("a", 2.0));
        }
        assertThat(RunJournal.readHeader(runDir)).contains(header);
        assertThat(RunJournal.read(runDir)).extracting(BlockResult::variant).containsExactly("a");
        assertThat(Files.readAllLines(runDir.resolve(RunJournal.FILE_NAME)).get(0)).startsWith("{\"run\":");
    }

    @Test
    void serverEnvironmentsAreJournalledBetweenTrialsAndReadApart(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        io.servebench.results.ServerEnvironment env = new io.servebench.results.ServerEnvironment("s01-vllm-abc", "vllm", "0.17.1",
                "Qwen/Qwen3.5-9B", "vllm serve Qwen/Qwen3.5-9B --api-key ***", List.of("NVIDIA H100 80GB HBM3, 81559 MiB, 570.86.15"),
                "Intel Xeon, 2 logical cores", "gpu-host", "Linux 6.1 amd64", "Debian 17.0.15", "0.1.0", "2026-11-30T03:00:00Z",
                List.of("engine default: at most 1024 running requests"),
                List.of(new io.servebench.results.TwinBar("vllm", "dense", "h100", io.servebench.results.TwinBar.Gpus.ONE,
                        io.servebench.results.TwinBar.Regime.UNPACED, 4, 16, 0.5, 0.21, 13, 1.37,
                        new io.servebench.results.TwinBar.HeldOut("Qwen/Qwen3.5-9B", 8, 6, 12, 0.39, 0.14))),
                List.of("--enforce-eager"));
        try (RunJournal journal = RunJournal.open(dir)) {
            journal.append(env);
            journal.append(trial("a", 2.6));
        }
        assertThat(RunJournal.readServers(dir)).containsExactly(env);
        assertThat(RunJournal.read(dir)).extracting(io.servebench.results.BlockResult::variant).containsExactly("a");
    }
    /**
     * A journal of an earlier ServeBench, whose server lines carried the simulated engine's error bar as a sentence
     * ({@code twinEvidence}, before stop 70), still reads: a run it began resumes.
     */
    @Test
    void aServerLineOfAnEarlierServeBenchWithAFieldNoLongerRecordedStillReads(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve(RunJournal.FILE_NAME), "{\"server\":{\"serverId\":\"s01-vllm-abc\",\"engine\":"
                + "\"sim:vllm\",\"model\":\"Qwen/Qwen3.5-9B\",\"engineLimits\":[],\"twinEvidence\":\"within ±21% (mean 10%)"
                + " on 2 published vLLM hybrid H100 cases on one GPU (8 figures)\"}}\n");
        assertThat(RunJournal.readServers(dir)).singleElement().satisfies(server -> {
            assertThat(server.serverId()).isEqualTo("s01-vllm-abc");
            assertThat(server.twinBars()).isEmpty();
        });
    }

    /**
     * A journal written before the bars said which way the twin leaned (stop 74's) still reads, its bars with no lean to
     * state rather than a lean of none: a run it began resumes, and its reports say what they said then.
     */
    @Test
    void aBarWrittenBeforeBarsLeanedReadsWithoutALean(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve(RunJournal.FILE_NAME), "{\"server\":{\"serverId\":\"s01-vllm-abc\",\"engine\":"
                + "\"sim:vllm\",\"model\":\"Qwen/Qwen3-14B\",\"engineLimits\":[],\"twinBars\":[{\"engine\":\"vllm\","
                + "\"architecture\":\"dense\",\"gpu\":\"h100\",\"gpus\":\"ONE\",\"regime\":\"UNPACED\",\"cases\":9,"
                + "\"figures\":36,\"maxError\":2.885,\"meanError\":0.516,\"calibration\":null}]}}\n");
        assertThat(RunJournal.readServers(dir)).singleElement().satisfies(server -> assertThat(server.twinBars())
                .singleElement().satisfies(bar -> {
                    assertThat(List.of(bar.cases(), bar.figures(), bar.fasterFigures())).containsExactly(9, 36, 0);
                    assertThat(bar.leans()).isFalse();
                }));
    }

    /** An append the disk refuses ({@code /dev/full} answers every write with ENOSPC) names the journal and the reason. */
    @Test
    void anAppendTheDiskRefusesNamesTheJournal() throws IOException {
        Path full = Path.of("/dev/full");
        org.assertj.core.api.Assumptions.assumeThat(Files.isWritable(full)).as("/dev/full").isTrue();
        try (RunJournal journal = RunJournal.openFile(full)) {
            assertThatThrownBy(() -> journal.append(trial("a", 2.0))).isInstanceOf(IOException.class)
                    .hasMessage("cannot append to /dev/full: No space left on device");
        }
    }
    /** One writer at a time: a second opening for appending is turned away, and reading still works. */
    @Test
    void aSecondWriterIsTurnedAwayWhileTheFirstHasTheJournalOpen(@TempDir Path dir) throws IOException {
        try (RunJournal first = RunJournal.open(dir)) {
            first.append(trial("a", 2.0));
            assertThatThrownBy(() -> RunJournal.open(dir)).isInstanceOf(RunJournal.InUse.class)
                    .hasMessageStartingWith(dir.resolve(RunJournal.FILE_NAME) + " is being written by another ServeBench run");
            assertThat(RunJournal.read(dir)).hasSize(1);
        }
        try (RunJournal again = RunJournal.open(dir)) {
            again.append(trial("b", 2.1));
        }
        assertThat(RunJournal.read(dir)).extracting(BlockResult::benchmark).hasSize(2);
    }
}
