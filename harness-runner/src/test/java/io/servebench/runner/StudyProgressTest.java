package io.servebench.runner;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.ServerConfig;
import io.servebench.plan.Trial;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.BlockResult;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The study line as a log (no terminal) shows it, on a clock the test moves. */
class StudyProgressTest {

    private static Trial trial(int i, double rate, int requests) {
        return new Trial("t0" + i, "s01", new ServerConfig(EngineKinds.SIM, "m", List.of()),
                new WorkloadParams("synthetic-sharegpt", "constant", rate, 0, requests, 0));
    }

    @Test
    void linesCountTrialsAndStartsAndEstimateWhatIsLeftFromTheTrialsSoFar() {
        AtomicLong now = new AtomicLong();
        StringWriter text = new StringWriter();
        RunParams options = RunParams.of(RunOptions.builder().outputDir(Path.of("unused")).build());
        // 100 s, 50 s and 200 s of planned load; the last trial runs on a second server
        List<Trial> trials = List.of(trial(1, 1, 100), trial(2, 2, 100), trial(3, 1, 200));
        StudyProgress progress = new StudyProgress(new PrintWriter(text, true), options, trials, 0, 2, true, now::get);

        progress.serverStarting(trials.subList(0, 2));
        now.addAndGet(TimeUnit.SECONDS.toNanos(20));          // the start takes 20 s
        progress.trialStarting(trials.get(0));
        now.addAndGet(TimeUnit.SECONDS.toNanos(110));         // 100 s of load take 110 s
        progress.trialFinished(trials.get(0), List.of());
        // left: (50 + 200) s of load at 1.1 s per planned second, and one start of 20 s
        assertThat(progress.line()).isEqualTo("Study: 1 of 3 trials done, 1 of 2 server starts, 2m10s elapsed, about 4m55s left");

        progress.step("option group 2 of 4: max-num-seqs");
        // a line after each trial and each step; before a server start only with -v
        assertThat(text.toString().lines().toList()).containsExactly(
                "Study: 1 of 3 trials done, 1 of 2 server starts, 2m10s elapsed, about 4m55s left",
                "Study: 1 of 3 trials done, 1 of 2 server starts, 2m10s elapsed, about 4m55s left · option group 2 of 4: max-num-seqs");
    }

    @Test
    void jobsOnAClusterGetNoEstimate() {
        AtomicLong now = new AtomicLong();
        RunParams options = RunParams.of(RunOptions.builder().outputDir(Path.of("unused")).build());
        List<Trial> trials = List.of(trial(1, 1, 100), trial(2, 2, 100));
        StudyProgress progress = new StudyProgress(new PrintWriter(new StringWriter()), options, trials, 0, 2, false, now::get);
        progress.serverStarting(trials.subList(0, 1));
        now.addAndGet(TimeUnit.SECONDS.toNanos(20));
        progress.trialStarting(trials.get(0));
        now.addAndGet(TimeUnit.SECONDS.toNanos(110));
        progress.trialFinished(trials.get(0), List.of());
        // queued jobs run side by side: the time so far says nothing of the time left
        assertThat(progress.eta()).isEmpty();
        assertThat(progress.line()).isEqualTo("Study: 1 of 2 trials done, 1 of 2 server starts, 2m10s elapsed");
    }

    @Test
    void aResumedRunCountsTheTrialsItHadFinished() {
        RunParams options = RunParams.of(RunOptions.builder().outputDir(Path.of("unused")).build());
        StudyProgress progress = new StudyProgress(new PrintWriter(new StringWriter()), options,
                List.of(trial(4, 1, 10)), 3, 1, true, () -> 0);
        assertThat(progress.line()).startsWith("Study: 3 of 4 trials done, 0 of 1 server starts");
        assertThat(progress.eta()).isEmpty();
    }

    @Test
    void aTrialMeasuredAgainCountsOnce() {
        RunParams options = RunParams.of(RunOptions.builder().outputDir(Path.of("unused")).build());
        StudyProgress progress = new StudyProgress(new PrintWriter(new StringWriter()), options, List.of(), 0, -1, true, () -> 0);
        progress.trialFinished(trial(1, 1, 10), List.of());
        // a tuner's close call: another repetition of the same trial
        progress.trialFinished(trial(1, 1, 10), List.of());
        progress.trialFinished(trial(2, 1, 10), List.of());
        // the trials' lines number each measurement, [3/3]: the line says how the two counts meet
        assertThat(progress.line()).startsWith("Study: 2 trials done in 3 measurements, 0 server starts");
    }

    @Test
    void durationsReadAsPeopleWriteThem() {
        assertThat(StudyProgress.format(java.time.Duration.ofSeconds(59))).isEqualTo("59 s");
        assertThat(StudyProgress.format(java.time.Duration.ofSeconds(61))).isEqualTo("1m01s");
        assertThat(StudyProgress.format(java.time.Duration.ofMinutes(125))).isEqualTo("2h05m");
    }

    @Test
    void verboseAlsoShowsTheStatusBeforeEachServerStart() {
        StringWriter text = new StringWriter();
        RunParams verbose = RunParams.of(RunOptions.builder().outputDir(Path.of("unused")).verbose(true).build());
        List<Trial> trials = List.of(trial(1, 1, 100));
        new StudyProgress(new PrintWriter(text, true), verbose, trials, 0, 1, true, () -> 0).serverStarting(trials);
        assertThat(text.toString().lines()).containsExactly("Study: 0 of 1 trials done, 0 of 1 server starts, 0 s elapsed");
    }

    @Test
    void aTrialThatFailedOrWasInterruptedIsNotCountedAsDone() {
        RunParams options = RunParams.of(RunOptions.builder().outputDir(Path.of("unused")).build());
        List<Trial> trials = List.of(trial(1, 1, 10), trial(2, 1, 10), trial(3, 1, 10), trial(4, 1, 10));
        StudyProgress progress = new StudyProgress(new PrintWriter(new StringWriter()), options, trials, 0, 1, true, () -> 0);
        progress.trialFinished(trials.get(0), List.of(block(trials.get(0), BlockResult.State.COMPLETE, null)));
        progress.trialFinished(trials.get(1), List.of(block(trials.get(1), BlockResult.State.FAILED, "the engine died")));
        progress.trialFinished(trials.get(2), List.of(block(trials.get(2), BlockResult.State.INTERRUPTED,
                "interrupted (SIGINT) during repetition 1")));
        progress.trialFinished(trials.get(3), List.of(block(trials.get(3), BlockResult.State.NOT_RUN,
                "interrupted (SIGINT) before it began")));
        assertThat(progress.line()).startsWith(
                "Study: 1 of 4 trials done, 1 failed, 1 interrupted, 1 not run, 0 of 1 server starts");
    }

    @Test
    void aTrialMeasuredAgainCountsAsItLastEnded() {
        RunParams options = RunParams.of(RunOptions.builder().outputDir(Path.of("unused")).build());
        StudyProgress progress = new StudyProgress(new PrintWriter(new StringWriter()), options, List.of(), 0, -1, true, () -> 0);
        Trial t = trial(1, 1, 10);
        progress.trialFinished(t, List.of(block(t, BlockResult.State.INTERRUPTED, "interrupted (SIGTERM) during repetition 2")));
        assertThat(progress.line()).startsWith("Study: 0 trials done, 1 interrupted, ");
        progress.trialFinished(t, List.of(block(t, BlockResult.State.COMPLETE, null)));
        assertThat(progress.line()).startsWith("Study: 1 trials done in 2 measurements, 0 server starts");
    }

    private static BlockResult block(Trial trial, BlockResult.State state, String failure) {
        List<RepetitionResult> measured = state == BlockResult.State.COMPLETE
                ? List.of(new RepetitionResult(Map.of("successful_requests", 10.0), Map.of(), 0, 0, Map.of(), Map.of()))
                : List.of();
        return new BlockResult("Study.v", "Study", "v", "", false, Map.of(), trial.id(), trial.serverId(), measured,
                failure, false, null, state, List.of());
    }

    @Test
    void onceEveryTrialHasEndedNoTimeIsLeftToEstimate() {
        AtomicLong now = new AtomicLong();
        RunParams options = RunParams.of(RunOptions.builder().outputDir(Path.of("unused")).build());
        List<Trial> trials = List.of(trial(1, 1, 100), trial(2, 2, 100));
        StudyProgress progress = new StudyProgress(new PrintWriter(new StringWriter()), options, trials, 0, 1, true, now::get);
        progress.serverStarting(trials);
        now.addAndGet(TimeUnit.SECONDS.toNanos(20));
        progress.trialStarting(trials.get(0));
        now.addAndGet(TimeUnit.SECONDS.toNanos(110));
        progress.trialFinished(trials.get(0), List.of());
        assertThat(progress.line()).endsWith("2m10s elapsed, about 55 s left");
        progress.trialStarting(trials.get(1));
        now.addAndGet(TimeUnit.SECONDS.toNanos(3));
        // the second ended early (a stop condition, 3 s in): every trial has ended, and nothing is left to estimate
        progress.trialFinished(trials.get(1), List.of());
        assertThat(progress.line()).isEqualTo("Study: 2 of 2 trials done, 1 of 1 server starts, 2m13s elapsed");
    }
}
