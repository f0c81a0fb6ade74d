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
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Multi-turn conversations through the runner: each turn after its answer, with its history, and metrics per turn. */
class MultiTurnOnTheSimulatedEngineTest {

    /**
     * Conversations at 10 a second under a cap of two requests in flight, through the runner in virtual time: every
     * trial complete, every turn answered, never more than two requests in flight (the case that once sent a later turn
     * behind the engine's clock is {@code VirtualLoadTest}'s, on Qwen3-8B).
     */
    @Test
    void conversationsUnderAConcurrencyCapKeepItTurnByTurn(@TempDir Path dir) throws Exception {
        for (String out : java.util.List.of("8", "12", "16")) {
            Path folder = dir.resolve("out" + out);
            RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                    .param("dataset", "multi-turn:turns=3,in=fixed(60),out=fixed(" + out + ")").param("rate", "10")
                    .param("requests", "60").param("warmup", "0").param("maxConcurrency", "2")
                    .simulate(EngineParams.Simulate.VIRTUAL).outputDir(folder).progress(false).build(),
                    new PrintWriter(new StringWriter(), true)).run();
            assertThat(outcome.blocks("baseline").get(0).failure()).as("out=%s", out).isNull();
            List<RequestRecord> records = RunFolderRecords.onlyTrialsRecords(folder);
            assertThat(records).hasSize(60).allSatisfy(r -> assertThat(r.succeeded()).isTrue());
            for (RequestRecord r : records) {
                long inFlight = records.stream().filter(o -> o.sentNs() <= r.sentNs() && o.doneNs() > r.sentNs()).count();
                assertThat(inFlight).as("out=%s: in flight when %d is sent", out, r.id()).isLessThanOrEqualTo(2);
            }
        }
    }

    @Test
    void laterTurnsFollowTheirAnswersCarryTheirHistoryAndAreReportedPerTurn(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                .param("dataset", "multi-turn:turns=3,in=fixed(40),out=fixed(16),system=100,count=20").param("rate", "2")
                .param("requests", "60").param("warmup", "0").param("api", "completions")
                .simulate(EngineParams.Simulate.VIRTUAL).outputDir(out).progress(false).build(),
                new PrintWriter(new StringWriter(), true)).run();

        List<RequestRecord> records = RunFolderRecords.onlyTrialsRecords(out);
        assertThat(records).hasSize(60).allSatisfy(r -> assertThat(r.succeeded()).isTrue());
        for (int c = 0; c < 20; c++) {
            RequestRecord first = records.get(3 * c);
            for (int k = 1; k < 3; k++) {
                RequestRecord turn = records.get(3 * c + k);
                assertThat(turn.intendedNs()).as("conversation %d turn %d", c, k + 1)
                        .isEqualTo(records.get(3 * c + k - 1).doneNs());
                // the server counts the history: the system prompt, each earlier question and its 16-token answer
                assertThat(turn.promptTokens()).isEqualTo(100 + k * (40 + 16) + 40);
            }
            assertThat(first.promptTokens()).isEqualTo(140);
            if (c > 0) {
                // conversations start on the schedule: 2 a second
                assertThat(first.intendedNs() - records.get(0).intendedNs()).isEqualTo(c * 500_000_000L);
            }
        }
        BlockResult block = outcome.blocks("baseline").get(0);
        var turns = block.repetitions().get(0).turns();
        assertThat(turns).containsOnlyKeys("1", "2", "3");
        for (int k = 1; k <= 3; k++) {
            assertThat(turns.get(Integer.toString(k)).value(Metric.SUCCESSFUL_REQUESTS)).hasValue(20.0);
            assertThat(turns.get(Integer.toString(k)).value(Metric.TOTAL_INPUT_TOKENS)).as("turn %d", k)
                    .hasValue(20.0 * (100 + (k - 1) * (40 + 16) + 40));
        }
        String summary = Files.readString(out.resolve("summary.md"));
        assertThat(summary).contains("Per turn of the conversations").containsPattern("\\| 3 \\| 20 \\| 5,?040 \\| [\\d.]+");
        // the rate paces conversations, and the block's title says so
        assertThat(summary).containsPattern("· rate [\\d.]+ conversations/s").doesNotContainPattern("· rate [\\d.]+ req/s");
    }
    /**
     * Two variants over the same conversations, two repetitions each: every turn's TTFT compared with the baseline's as
     * the blocks are, its ratio that of the two variants' per-turn means.
     */
    @Test
    void eachTurnsTtftIsComparedWithTheBaselinesWithTheBlocksRule(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class)
                .param("dataset", "multi-turn:turns=3,in=fixed(400),out=fixed(16),system=1000,count=20").param("rate", "2")
                .param("requests", "60").param("warmup", "0").repetitions(2)
                .simulate(EngineParams.Simulate.VIRTUAL).outputDir(out).progress(false).build(),
                new PrintWriter(new StringWriter(), true)).run();

        String summary = Files.readString(out.resolve("summary.md"));
        List<String> table = summary.lines().dropWhile(l -> !l.startsWith("| Turn | mtp2 against baseline |"))
                .takeWhile(l -> l.startsWith("|")).toList();
        assertThat(table).as(summary).hasSize(5);
        for (int turn = 1; turn <= 3; turn++) {
            double base = meanTtft(outcome.blocks("baseline").get(0), turn);
            double mtp = meanTtft(outcome.blocks("mtp2").get(0), turn);
            // where the two variants' means are equal to the last digit, the cell says so
            String ratio = base == mtp ? "the same" : String.format(java.util.Locale.ROOT, "%.2fx %s",
                    Math.max(base, mtp) / Math.min(base, mtp), mtp > base ? "slower" : "faster");
            assertThat(table.get(turn + 1)).as("turn %d", turn).startsWith("| " + turn + " | ").contains(ratio)
                    .contains("run-to-run");
        }
        assertThat(Files.readString(out.resolve("report.html"))).contains("mtp2 against baseline");
    }

    /** The mean over the block's repetitions of each one's mean TTFT of that turn. */
    private static double meanTtft(BlockResult block, int turn) {
        return block.repetitions().stream().mapToDouble(r -> r.turns().get(Integer.toString(turn))
                .distribution(Metric.TTFT).orElseThrow().mean()).average().orElseThrow();
    }
}
