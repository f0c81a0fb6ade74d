package io.servebench.execution;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A usually quick step says it is still going only when it is not quick, and then says when it ended. */
class SlowStepTest {

    @Test
    void aSlowStepSaysSoThenWhenItEnded() throws Exception {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text, true);
        try (SlowStep step = SlowStep.after(Duration.ofMillis(100), out, "Reading dataset big: still at it")) {
            Thread.sleep(400);
            step.ended("Read dataset big in " + (step.elapsedNs() >= 400_000_000L ? "0.4 s or more" : "less"));
        }
        assertThat(text.toString().lines()).containsExactly("Reading dataset big: still at it",
                "Read dataset big in 0.4 s or more");
    }

    @Test
    void aQuickStepSaysNothing() throws Exception {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text, true);
        try (SlowStep step = SlowStep.after(Duration.ofMillis(300), out, "still at it")) {
            step.ended("ended");
        }
        Thread.sleep(500);
        assertThat(text.toString()).isEmpty();
    }
}
