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
}
