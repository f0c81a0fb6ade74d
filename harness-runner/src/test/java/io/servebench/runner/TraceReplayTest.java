package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.load.RequestRecord;
import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A trace replayed through the runner: every request at its recorded time, scaled, in file order, and no more. */
class TraceReplayTest {

    @Test
    void eachRequestGoesOutAtItsTraceTimeTimesTheScale(@TempDir Path dir) throws Exception {
        StringBuilder trace = new StringBuilder();
        List<Long> times = new ArrayList<>();
        long t = 5_000;
        for (int i = 0; i < 30; i++) {
            // bursts and gaps: not a rate any profile would make
            t += i % 5 == 0 ? 900 : 37 * (i % 3);
            times.add(t);
            trace.append(String.format("{\"timestamp\": %d, \"input_length\": %d, \"output_length\": %d, \"hash_ids\": [%d, %d]}%n",
                    t, 600 + 10 * i, 20 + i, i % 4, 100 + i));
        }
        Path file = Files.writeString(dir.resolve("trace.jsonl"), trace);
        Path out = dir.resolve("run");

        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                .param("dataset", "trace:" + file + ",timeScale=0.5").param("profile", "trace")
                .param("requests", "1000").param("warmup", "2").param("api", "completions")
                .simulate(EngineParams.Simulate.VIRTUAL).outputDir(out).progress(false).build(),
                new PrintWriter(new StringWriter(), true)).run();

        List<RequestRecord> records = RunFolderRecords.onlyTrialsRecords(out);
        // the trace's 30 lines and no more, though 1000 requests were asked for; the first two are the warm-up
        assertThat(records).hasSize(30);
        assertThat(records).filteredOn(RequestRecord::warmup).extracting(RequestRecord::id).containsExactly(0L, 1L);
        long t0 = records.get(0).intendedNs();
        for (int i = 0; i < records.size(); i++) {
            assertThat(records.get(i).intendedNs() - t0).as("request %d", i)
                    .isEqualTo(Math.round((times.get(i) - times.get(0)) * 1e6 * 0.5));
            assertThat(records.get(i).promptTokens()).as("the server's count of request %d's prompt", i)
                    .isEqualTo(600 + 10 * i);
        }
        BlockResult block = outcome.blocks("baseline").get(0);
        assertThat(block.params()).containsEntry("profile", "trace");
        assertThat(block.repetitions().get(0).value(Metric.TOTAL_OUTPUT_TOKENS)).hasValue(
                (double) java.util.stream.IntStream.range(2, 30).map(i -> 20 + i).sum());
    }

    @Test
    void theTraceProfileWithoutATraceIsRefusedBeforeAnythingRuns(@TempDir Path dir) {
        assertThatThrownBy(() -> new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                .param("profile", "trace").simulate(EngineParams.Simulate.VIRTUAL).outputDir(dir).progress(false).build(),
                new PrintWriter(new StringWriter(), true)).run())
                .hasMessageContaining("profile trace replays a trace's arrival times, but the dataset is synthetic-sharegpt")
                .hasMessageContaining("expected dataset = \"trace:PATH[,timeScale=X]\"");
    }
}
