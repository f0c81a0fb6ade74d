package io.servebench.cli;

import io.servebench.execution.KilledTrials;

import io.servebench.results.BlockResult;
import io.servebench.results.IncompleteRepetition;
import io.servebench.results.RepetitionResult;
import io.servebench.results.journal.RunJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A harness killed with SIGKILL, which runs no code of its own on the way out: its engines must go with it (their
 * supervisors see the pipe close), and {@code --resume} must finish the run as if it had never stopped.
 */
// its tests beside each other: each looks only at its own harness's processes
@Execution(ExecutionMode.CONCURRENT)
class ResumeAfterSigkillTest {

    /**
     * Six trials on two server configurations: SimStudy's baseline and mtp2 at three rates, a few requests each, with
     * short replies so that each trial takes about as long as its schedule.
     */
    private static List<String> study(Path dataset) {
        return List.of("SimStudy", "--simulate=process", "-p", "rate=4,8,16", "-p", "requests=8", "-p", "warmup=0",
                "-p", "dataset=sharegpt:" + dataset, "--settle", "0", "--seed", "7");
    }

    private static Path shortConversations(Path dir) throws IOException {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < 16; i++) {
            json.append(i == 0 ? "" : ",").append("{\"conversations\": [{\"from\": \"human\", \"value\": \"")
                    .append("Question ").append(i).append(": what is the tallest mountain on each continent, briefly?")
                    .append("\"}, {\"from\": \"gpt\", \"value\": \"Everest, Aconcagua, Denali, Kilimanjaro, Elbrus, Vinson and")
                    .append(" Puncak Jaya, in that order.\"}]}");
        }
        Path file = dir.resolve("short.json");
        Files.writeString(file, json.append("]").toString());
        return file;
    }

    @Test
    void aRunKilledAfterItsThirdTrialLeavesNoEngineAndResumesToTheSameResults(@TempDir Path tmp) throws Exception {
        List<String> study = study(shortConversations(tmp));
        Path killed = tmp.resolve("killed");
        List<String> argv = new ArrayList<>(HarnessJvm.command(List.of(), study));
        argv.addAll(List.of("-o", killed.toString()));
        Files.createDirectories(killed);
        Process harness = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("harness.out").toFile()).start();
        List<ProcessHandle> engines;
        try {
            awaitTrials(killed, 3, harness, tmp.resolve("harness.out"));
            // a random moment after the third trial: in the fourth, or while a server starts. The third trial is
            // the baseline's last, so the moment may fall between its engine's stop and mtp2's start, when the
            // harness has no child to leave behind: then the kill waits for the next engine to appear.
            Thread.sleep(ThreadLocalRandom.current().nextLong(0, 1500));
            engines = harness.toHandle().descendants().toList();
            long appear = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (engines.isEmpty() && harness.isAlive() && System.nanoTime() < appear) {
                Thread.sleep(10);
                engines = harness.toHandle().descendants().toList();
            }
            assertThat(engines).as("the harness's supervisors and engines").isNotEmpty();
            harness.toHandle().destroyForcibly();
            assertThat(harness.waitFor(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            harness.destroyForcibly();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (engines.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(engines.stream().filter(ProcessHandle::isAlive).map(p -> p.pid() + " " + p.info().commandLine().orElse("")))
                .as("processes alive 5 s after the harness was SIGKILLed").isEmpty();
        int finishedBefore = RunJournal.read(killed).size();
        assertThat(finishedBefore).isBetween(3, 5);

        StringWriter out = new StringWriter();
        int code = Main.execute(new String[] {"--resume", killed.toString()}, new PrintWriter(out, true),
                new PrintWriter(out, true));
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("Resuming: " + finishedBefore + " of 6 trials complete before");

        Path whole = tmp.resolve("whole");
        StringWriter wholeOut = new StringWriter();
        String[] wholeArgs = Stream.concat(study.stream(), Stream.of("-o", whole.toString()))
                .toArray(String[]::new);
        assertThat(Main.execute(wholeArgs, new PrintWriter(wholeOut, true), new PrintWriter(wholeOut, true)))
                .as(wholeOut.toString()).isZero();

        // a trial the harness was in the middle of runs again whole, its cut-short records kept apart: every block
        // measured what the uninterrupted run measured
        Map<String, List<Long>> resumedCounts = requestCounts(killed);
        Map<String, List<Long>> wholeCounts = requestCounts(whole);
        assertThat(resumedCounts).isEqualTo(wholeCounts).hasSize(6);
        assertThat(lastLines(killed)).allSatisfy(b -> assertThat(b.succeeded()).as(b.benchmark()).isTrue());
        String summary = Files.readString(killed.resolve("summary.md"));
        assertThat(summary).contains("SimStudy.baseline").contains("SimStudy.mtp2");
        assertThat(summary).doesNotContain("not run: the run stopped before this trial");
    }

    @Test
    void aTrialInFlightWhenTheHarnessIsKilledIsKeptAsFarAsItsRecordsWent(@TempDir Path tmp) throws Exception {
        Path killed = tmp.resolve("killed");
        // two trials of 10 s of load: killed about half way through the first
        Process harness = new ProcessBuilder(HarnessJvm.command("SimStudy.baseline", "--simulate", "-p", "rate=8,4", "-p",
                "requests=80", "-p", "warmup=0", "-p", "dataset=synthetic:in=fixed(100),out=fixed(20)", "-o",
                killed.toString())).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("harness.out").toFile()).start();
        try {
            Path requests = killed.resolve("requests");
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (System.nanoTime() < deadline && !(Files.isDirectory(requests) && Files.list(requests).findAny().isPresent())) {
                Thread.sleep(20);
            }
            Thread.sleep(5000);
            harness.toHandle().destroyForcibly();
            assertThat(harness.waitFor(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            harness.destroyForcibly();
        }
        assertThat(RunJournal.read(killed)).as(Files.readString(tmp.resolve("harness.out"))).isEmpty();

        StringWriter out = new StringWriter();
        int code = Main.execute(new String[] {"--resume", killed.toString()}, new PrintWriter(out, true),
                new PrintWriter(out, true));
        // the cut-short repetition runs again, whole: both trials complete
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("repetition 1 was cut short by the harness's end")
                .contains("Done: 2 of 2 trials complete.");
        List<BlockResult> blocks = lastLines(killed);
        assertThat(blocks).hasSize(2).allSatisfy(b -> {
            assertThat(b.succeeded()).isTrue();
            assertThat(successful(b.repetitions().get(0))).isEqualTo(80L);
        });
        // what the killed harness had measured of it is kept apart, named as interrupted
        IncompleteRepetition kept = blocks.get(0).incomplete().get(0);
        assertThat(kept.kind()).isEqualTo(IncompleteRepetition.Kind.INTERRUPTED);
        assertThat(kept.reason()).isEqualTo(KilledTrials.REASON);
        assertThat(killed.resolve(kept.records())).exists();
        long finished = successful(kept.measured());
        // about 40 requests were sent in 5 s; those finished more than a second before the kill were on disk
        assertThat(finished).isBetween(20L, 79L);
        assertThat(Files.readString(killed.resolve("summary.md"))).contains(KilledTrials.REASON);
    }

    @Test
    void resumeRefusesOtherOptionsAndAFolderWithoutARun(@TempDir Path tmp) throws IOException {
        StringWriter out = new StringWriter();
        assertThat(Main.execute(new String[] {"--resume", tmp.toString(), "--quick"}, new PrintWriter(out, true),
                new PrintWriter(out, true))).isEqualTo(2);
        assertThat(out.toString()).contains("takes no other option");
        StringWriter out2 = new StringWriter();
        assertThat(Main.execute(new String[] {"--resume", tmp.toString()}, new PrintWriter(out2, true),
                new PrintWriter(out2, true))).isEqualTo(2);
        assertThat(out2.toString()).contains("no journal.jsonl there; expected the folder a run wrote (its -o)");
        // a journal without its header, as an editor or a copy cut short may leave it
        java.nio.file.Files.writeString(tmp.resolve("journal.jsonl"), "garbage\n");
        StringWriter out3 = new StringWriter();
        assertThat(Main.execute(new String[] {"--resume", tmp.toString()}, new PrintWriter(out3, true),
                new PrintWriter(out3, true))).isEqualTo(2);
        assertThat(out3.toString()).contains("its journal.jsonl has no run header (the line {\"run\": ...} a run writes"
                + " first)");
    }

    @Test
    void aNewRunIntoAFolderThatHoldsOneIsRefused(@TempDir Path tmp) throws IOException {
        Files.writeString(tmp.resolve(RunJournal.FILE_NAME), "{\"run\":{}}\n");
        StringWriter out = new StringWriter();
        assertThat(Main.execute(new String[] {"SimStudy.baseline", "--simulate", "-o", tmp.toString()},
                new PrintWriter(out, true), new PrintWriter(out, true))).isEqualTo(2);
        assertThat(out.toString()).contains("already holds a run").contains("--resume " + tmp);
    }

    /** Successful requests of every block, by benchmark and rate, as its last journal line has them. */
    private static Map<String, List<Long>> requestCounts(Path dir) throws IOException {
        return lastLines(dir).stream().collect(Collectors.toMap(
                b -> b.benchmark() + "@" + b.params().get("rate"),
                b -> b.repetitions().stream().map(ResumeAfterSigkillTest::successful).toList(),
                (a, b) -> {
                    throw new AssertionError("a block named twice");
                }, TreeMap::new));
    }

    /** Each block's last line in the journal: a trial resumed after a kill is journalled again. */
    private static List<BlockResult> lastLines(Path dir) throws IOException {
        Map<String, BlockResult> last = new java.util.LinkedHashMap<>();
        RunJournal.read(dir).forEach(b -> last.put(b.benchmark() + "@" + b.params().get("rate"), b));
        return List.copyOf(last.values());
    }

    private static long successful(RepetitionResult r) {
        return Math.round(r.scalars().get("successful_requests"));
    }

    private static void awaitTrials(Path dir, int trials, Process harness, Path output) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            if (RunJournal.read(dir).size() >= trials) {
                return;
            }
            if (!harness.isAlive()) {
                throw new AssertionError("the harness ended before its trial " + trials + ": " + Files.readString(output));
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no " + trials + " trials within 2 min: " + Files.readString(output));
    }

}
