package io.servebench.execution;

import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A trial's lines where no terminal shows a bar (a log, CI): one line a repetition, with why it stopped early; verbose,
 * its start and a line a slice (for a load longer than one).
 */
class TrialProgressTest {

    private static Map.Entry<Integer, RepetitionResult> slice(int index, double ok) {
        return Map.entry(index, new RepetitionResult(Map.of("successful_requests", ok), Map.of(), 0, 0, Map.of(), Map.of()));
    }

    @Test
    void aLoadOfOneSliceHasNoSliceLineAndALongerOneHasOneForEach() {
        StringWriter one = new StringWriter();
        try (TrialProgress progress = TrialProgress.start(new PrintWriter(one, true), "t01", 16, true, true)) {
            progress.slice(slice(0, 16));
        }
        assertThat(one.toString()).contains("t01: 16 requests...").doesNotContain("slice");

        StringWriter three = new StringWriter();
        try (TrialProgress progress = TrialProgress.start(new PrintWriter(three, true), "t02", 300, true, true)) {
            progress.slice(slice(0, 100));
            assertThat(three.toString()).doesNotContain("slice");
            progress.slice(slice(1, 110));
            progress.slice(slice(2, 90));
        }
        assertThat(three.toString().lines().filter(l -> l.contains("slice"))).hasSize(3)
                .satisfiesExactly(l -> assertThat(l).contains("slice 1: 100 ok"), l -> assertThat(l).contains("slice 2: 110 ok"),
                        l -> assertThat(l).contains("slice 3: 90 ok"));
    }

    @Test
    void withoutVerboseARepetitionIsOneLineThatSaysWhyItStoppedEarly() {
        StringWriter quiet = new StringWriter();
        try (TrialProgress progress = TrialProgress.start(new PrintWriter(quiet, true), "[1/2] t01", 300, true, false)) {
            progress.slice(slice(0, 100));
            progress.slice(slice(1, 110));
            progress.finish(new RepetitionResult(Map.of("successful_requests", 210.0, "failed_requests", 0.0), Map.of(),
                    0, 0, Map.of(), Map.of()), java.util.Optional.of("stopped at 60 s: durationSeconds"));
        }
        assertThat(quiet.toString().lines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("[1/2] t01: 210/210 ok, mean latency").endsWith("; stopped at 60 s: durationSeconds"));
    }

    @Test
    void aLoadInWhichNothingEndsSaysSoWhileItWaits() throws Exception {
        StringWriter text = new StringWriter();
        try (TrialProgress progress = TrialProgress.onPipe(new PrintWriter(text, true), "[1/1] t01", false,
                java.time.Duration.ofMillis(1000))) {
            progress.onSend(1);
            progress.onSend(2);
            progress.onSend(3);
            Thread.sleep(2300);
        }
        int lines = text.toString().lines().toList().size();
        assertThat(text.toString().lines()).hasSizeBetween(1, 2).allSatisfy(line -> assertThat(line)
                .matches("\\[1/1] t01: 3 in flight, none ended for [12] s \\(one that hears nothing for"
                        + " --request-timeout fails\\)"));
        Thread.sleep(1200);
        assertThat(text.toString().lines()).as("nothing after the load ended").hasSize(lines);

        StringWriter idle = new StringWriter();
        try (TrialProgress progress = TrialProgress.onPipe(new PrintWriter(idle, true), "t02", false,
                java.time.Duration.ofMillis(300))) {
            Thread.sleep(800);
        }
        assertThat(idle.toString()).as("nothing in flight: nothing to say").isEmpty();
    }

    @Test
    void onATerminalTheBarSaysSoUntilTheRequestsEnd() throws Exception {
        java.util.List<String> drawn = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (TrialProgress progress = TrialProgress.onTerminal(new PrintWriter(new StringWriter(), true), "t01", 2, false,
                java.time.Duration.ofMillis(1000), new me.tongfei.progressbar.ProgressBarBuilder()
                        .setConsumer(new me.tongfei.progressbar.DelegatingProgressBarConsumer(drawn::add, 400)))) {
            progress.onSend(1);
            progress.onSend(2);
            Thread.sleep(1700);
            assertThat(drawn).anyMatch(line -> line.matches(".*t01 .* none ended for 1 s, 2 in flight \\(one that hears"
                    + " nothing for --request-timeout fails\\)\\s*"));
            progress.onComplete(record(1));
            progress.onComplete(record(2));
            drawn.clear();
            Thread.sleep(800);
            assertThat(drawn).as("redrawn once the requests ended").isNotEmpty().noneMatch(line -> line.contains("in flight"));
        }
    }

    private static io.servebench.load.RequestRecord record(long id) {
        long sent = 1_000_000_000L;
        return new io.servebench.load.RequestRecord(id, false, sent, sent, sent + 10, sent + 10, sent + 20, sent + 30, 5, 2,
                io.servebench.load.TokenSource.USAGE, new long[] {sent + 10, sent + 20}, new int[] {1, 1},
                io.servebench.load.TokenSource.CONTINUOUS_USAGE, 1, 0, 200, null);
    }
}
