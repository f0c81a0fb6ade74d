package io.servebench.execution;

import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A trial's lines where no terminal shows a bar (a log, CI): slices only for a load longer than one. */
class TrialProgressTest {

    private static Map.Entry<Integer, RepetitionResult> slice(int index, double ok) {
        return Map.entry(index, new RepetitionResult(Map.of("successful_requests", ok), Map.of(), 0, 0, Map.of(), Map.of()));
    }

    @Test
    void aLoadOfOneSliceHasNoSliceLineAndALongerOneHasOneForEach() {
        StringWriter one = new StringWriter();
        try (TrialProgress progress = TrialProgress.start(new PrintWriter(one, true), "t01", 16, true)) {
            progress.slice(slice(0, 16));
        }
        assertThat(one.toString()).contains("t01: 16 requests...").doesNotContain("slice");

        StringWriter three = new StringWriter();
        try (TrialProgress progress = TrialProgress.start(new PrintWriter(three, true), "t02", 300, true)) {
            progress.slice(slice(0, 100));
            assertThat(three.toString()).doesNotContain("slice");
            progress.slice(slice(1, 110));
            progress.slice(slice(2, 90));
        }
        assertThat(three.toString().lines().filter(l -> l.contains("slice"))).hasSize(3)
                .satisfiesExactly(l -> assertThat(l).contains("slice 1: 100 ok"), l -> assertThat(l).contains("slice 2: 110 ok"),
                        l -> assertThat(l).contains("slice 3: 90 ok"));
    }
}
