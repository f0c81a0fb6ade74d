package io.servebench.cli;

import io.servebench.results.BlockResult;
import io.servebench.results.journal.RunJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failures that must not look like success, and bad input found before anything starts: the console line of the trial
 * names what happened, the exit code says it, the reports agree. On the simulated engine in virtual time, whose answer
 * to a model it does not serve is vLLM's: 404.
 */
class FailuresAreLoudTest {

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private static String[] study(Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of("SimStudy.baseline", "--simulate=virtual", "-p", "rate=4", "-p",
                "requests=40", "-p", "warmup=0", "-p", "dataset=synthetic:in=fixed(100),out=fixed(50)", "-o", dir.toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void aTrialWhoseRequestsAllFailFailsAndTheConsoleSaysWhy(@TempDir Path tmp) throws Exception {
        Run run = run(study(tmp.resolve("run"), "-p", "models=no-such-adapter"));
        assertThat(run.code()).as(run.out()).isEqualTo(Main.TRIAL_FAILED);
        assertThat(run.out()).contains("failed: repetition 1: every measured request failed (40 of 40): http_404 ×40, e.g."
                        + " \"http_404: ").contains("no-such-adapter")
                .contains("Done: 0 of 1 trials complete, 1 failed.")
                // nothing was left undone: the trial failed as it was set up, and would fail so again
                .contains("Run the failed trial again, once what failed it is mended: java -jar benchmarks.jar --resume ")
                .doesNotContain("Continue with");
        BlockResult block = RunJournal.read(tmp.resolve("run")).get(0);
        assertThat(block.state()).isEqualTo(BlockResult.State.FAILED);
        assertThat(block.repetitions()).isEmpty();
        assertThat(Files.readString(tmp.resolve("run").resolve("summary.md")))
                .contains("The trial failed: repetition 1 failed: every measured request failed")
                .contains("Repetitions that did not complete").contains("http_404 ×40, e.g.");
        assertThat(Files.readString(tmp.resolve("run").resolve("results.json")).strip()).isEqualTo("[ ]");
    }

    /** A run folder on a full disk ({@code /dev/full} as its journal) is the disk's failure, not a bug of ServeBench's. */
    @Test
    void aFullDiskStopsTheRunWithExitCode1AndSaysHowToGoOn(@TempDir Path tmp) throws Exception {
        org.assertj.core.api.Assumptions.assumeThat(Files.isWritable(Path.of("/dev/full"))).as("/dev/full").isTrue();
        Path dir = Files.createDirectories(tmp.resolve("run"));
        Files.createSymbolicLink(dir.resolve("journal.jsonl"), Path.of("/dev/full"));
        Run run = run(study(dir));
        assertThat(run.code()).as(run.err()).isEqualTo(Main.TRIAL_FAILED);
        assertThat(run.err()).startsWith("error: cannot append to " + dir.resolve("journal.jsonl")
                + ": No space left on device. The run stopped there").contains("--resume " + dir)
                .doesNotContain("a fault of ServeBench's");
    }

    @Test
    void aFailedShareOverTheLimitFailsTheTrialUnlessTheLimitAllowsIt(@TempDir Path tmp) {
        // one conversation in four names an adapter the server does not serve
        String[] mix = {"-p", "models=Qwen/Qwen3.5-9B:3,no-such-adapter:1"};
        Run strict = run(study(tmp.resolve("strict"), mix));
        assertThat(strict.code()).as(strict.out()).isEqualTo(Main.TRIAL_FAILED);
        assertThat(strict.out()).containsPattern("failed: repetition 1: \\d+ of 40 measured requests failed \\(\\d+\\.\\d%,"
                + " more than --max-failed-share 0.05\\): http_404 ×\\d+, e.g. \"http_404: ");
        Run lenient = run(study(tmp.resolve("lenient"), mix[0], mix[1], "--max-failed-share", "0.5"));
        assertThat(lenient.code()).as(lenient.out()).isEqualTo(Main.OK);
        assertThat(lenient.out()).contains("Done: 1 of 1 trials complete.");
    }

    @Test
    void aStopIsOnTheTrialsLine(@TempDir Path tmp) {
        Run run = run(study(tmp.resolve("run"), "-p", "durationSeconds=2"));
        assertThat(run.code()).as(run.out()).isEqualTo(Main.OK);
        assertThat(run.out()).containsPattern("t01-\\S+: \\d+/\\d+ ok, .*; stopped after 2\\.00 s \\(duration limit\\):"
                + " \\d+ of 40 requests sent");
    }

    @Test
    void anUnwritableOutputFolderIsOneLineAndNothingStarts(@TempDir Path tmp) throws Exception {
        // a file where the folder would go: root may write anywhere, but not into a file
        Files.writeString(tmp.resolve("taken"), "a file");
        Run run = run(study(tmp.resolve("taken").resolve("run")));
        assertThat(run.code()).isEqualTo(Main.BAD_INPUT);
        assertThat(run.err()).startsWith("error: cannot write the results to " + tmp.resolve("taken").resolve("run"))
                .contains("give a folder you can write with -o").hasLineCount(1);
        assertThat(run.out()).doesNotContain("Starting");
    }

    @Test
    void cancellationInVirtualTimeIsOneLineAndNothingStarts(@TempDir Path tmp) {
        Run run = run(study(tmp.resolve("run"), "-p", "cancellationRate=20"));
        assertThat(run.code()).isEqualTo(Main.BAD_INPUT);
        assertThat(run.err()).startsWith("error: cancellationRate (io.servebench.runner.SimStudy.baseline) calls requests"
                + " off by closing their connections, and --simulate=virtual has none").hasLineCount(1);
        assertThat(run.out()).doesNotContain("Starting");
        assertThat(tmp.resolve("run")).doesNotExist();
    }

    @Test
    void oneRepetitionAgainstThreeOfOneConfigurationClaimsNoRegression(@TempDir Path tmp) {
        // the same study and configuration run once with -r 1 and once with -r 3: repetition 1 is the same run
        assertThat(run(study(tmp.resolve("one"))).code()).isZero();
        assertThat(run(study(tmp.resolve("three"), "-r", "3")).code()).isZero();
        Run compare = run("compare", tmp.resolve("one").resolve("results.json").toString(),
                tmp.resolve("three").resolve("results.json").toString(), "--fail-on", "latency:1%");
        assertThat(compare.code()).as(compare.out()).isZero();
        assertThat(compare.out()).contains("undecided: run-to-run noise not measured").contains("No threshold exceeded.");
    }
}
