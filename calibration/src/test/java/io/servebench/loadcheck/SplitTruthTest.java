package io.servebench.loadcheck;

import io.servebench.truth.SentEvent;
import io.servebench.truth.TruthRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A truth crosses the pipe between the split check's two processes whole. */
class SplitTruthTest {

    @Test
    void aTruthReadsBackAsItWasWritten() {
        for (TruthRecord t : List.of(
                new TruthRecord("r2-17", 123_456_789L, 200, 3, List.of(new SentEvent(200_000_000L, 1, true, 199_999_000L),
                        new SentEvent(210_000_000L, 2, false, 209_000_000L)), true, null, 0),
                new TruthRecord("id\\twith\\ttabs\\nand lines \\\\", 5, 500, 0, List.of(), false,
                        "closed: the client\\tleft\\n", 77),
                new TruthRecord("e", 1, 200, 1, List.of(), true, "", 0))) {
            assertThat(SplitTruth.decode(SplitTruth.encode(t))).isEqualTo(t);
        }
    }

    @Test
    void aSplitCheckServesFromAProcessOfItsOwnAndMatchesEveryRequestWithItsTruth() throws Exception {
        // the truth server runs SplitTruth's own main in a child JVM on this class path, and answers over the pipe
        LoadCheck check = new LoadCheck(50, 0, 5, Duration.ofSeconds(1), Duration.ZERO, Duration.ofMillis(5),
                Duration.ofMillis(2), 1, 1, 1);
        LoadCheckReport report = check.run();
        assertThat(report.requests()).isEqualTo(50);
        assertThat(report.failed()).isZero();
        assertThat(report.unmatched()).as("requests the server had no truth for").isZero();
        assertThat(report.serverPeakStreams()).as("the child's own count, over the pipe").isPositive();
    }

    @Test
    void twoTruthProcessesServeOnPortsOfTheirOwnAndEachRequestsTruthIsAskedOfTheOneItWentTo() throws Exception {
        LoadCheck check = new LoadCheck(60, 0, 5, Duration.ofSeconds(1), Duration.ZERO, Duration.ofMillis(5),
                Duration.ofMillis(2), 2, 2, 1);
        assertThat(check.loopsPerProcess()).isEqualTo(1);
        try (TruthProcesses servers = TruthProcesses.start(check)) {
            assertThat(servers.baseUris()).hasSize(2).doesNotHaveDuplicates();
        }

        LoadCheckReport report = check.run();
        assertThat(report.requests()).isEqualTo(60);
        assertThat(report.failed()).isZero();
        // a request asked of the server it did not go to has no truth there: a wrong spread shows here
        assertThat(report.unmatched()).as("requests their server had no truth for").isZero();
    }

    @Test
    @Timeout(120)
    void aTruthProcessThatDiesMidCheckIsNamedAndTheCheckStillEndsWithWhatItMeasured() throws Exception {
        LoadCheck check = new LoadCheck(100, 0, 5, Duration.ofSeconds(4), Duration.ZERO, Duration.ofMillis(5),
                Duration.ofMillis(5), 2, 2, 1);
        Thread killer = new Thread(() -> {
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException e) {
                return;
            }
            ProcessHandle.current().children()
                    .filter(p -> p.info().commandLine().orElse("").contains(SplitTruth.class.getName()))
                    .findFirst().ifPresent(ProcessHandle::destroyForcibly);
        });
        killer.start();
        long start = System.nanoTime();
        LoadCheckReport report = check.run();
        killer.join();

        // without the end noticed, each of the dead server's requests waited out the truth's 7 s, one after another
        assertThat((System.nanoTime() - start) / 1e9).as("seconds the check took").isLessThan(30);
        assertThat(report.requests()).isEqualTo(400);
        assertThat(report.failed()).as("requests sent to the dead server").isBetween(1L, 399L);
        assertThat(report.warnings()).anySatisfy(w -> assertThat(w)
                .contains("stopped serving before the check's end", "exit code 137", "have no truth to compare"));
    }
}
