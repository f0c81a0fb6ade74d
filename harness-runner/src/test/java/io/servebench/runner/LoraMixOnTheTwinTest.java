package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A LoRA mix on the simulated engine in virtual time: the requests draw their adapters by weight, every figure is
 * also reported per adapter and those add up to the whole, and one adapter slot (vLLM's default) makes the requests
 * of the other adapter wait, where two slots do not.
 */
class LoraMixOnTheTwinTest {

    private static BlockResult run(Path dir, String variant) throws Exception {
        RunOutcome outcome = new Runner(RunOptions.builder().include(LoraStudy.class, variant)
                .param("models", "sql-lora:3,chat-lora:1").simulate(EngineParams.Simulate.VIRTUAL)
                .settle(java.time.Duration.ZERO).outputDir(dir).progress(false).build(),
                new PrintWriter(new StringWriter(), true)).run();
        return outcome.blocks(variant).get(0);
    }

    @Test
    void perAdapterFiguresAddUpAndOneSlotMakesTheOtherAdapterWait(@TempDir Path dir) throws Exception {
        BlockResult one = run(dir.resolve("one"), "oneSlot");
        RepetitionResult r = one.repetitions().get(0);
        assertThat(r.models().keySet()).containsExactly("sql-lora", "chat-lora");
        RepetitionResult sql = r.models().get("sql-lora");
        RepetitionResult chat = r.models().get("chat-lora");
        double all = r.value(Metric.SUCCESSFUL_REQUESTS).orElseThrow();
        assertThat(all).isEqualTo(200);
        assertThat(sql.value(Metric.SUCCESSFUL_REQUESTS).orElseThrow() + chat.value(Metric.SUCCESSFUL_REQUESTS).orElseThrow())
                .isEqualTo(all);
        assertThat(sql.value(Metric.TOTAL_OUTPUT_TOKENS).orElseThrow() + chat.value(Metric.TOTAL_OUTPUT_TOKENS).orElseThrow())
                .isEqualTo(r.value(Metric.TOTAL_OUTPUT_TOKENS).orElseThrow());
        // the draw follows the weights: 3 to 1, give or take a binomial's spread over 200 requests
        assertThat(sql.value(Metric.SUCCESSFUL_REQUESTS).orElseThrow() / all).isCloseTo(0.75, within(0.1));
        assertThat(Files.readString(dir.resolve("one").resolve("summary.md")))
                .contains("Per model or LoRA adapter of the mix").contains("| sql-lora |").contains("| chat-lora |");

        BlockResult two = run(dir.resolve("two"), "twoSlots");
        double waitOne = r.models().get("chat-lora").number(Metric.TTFT, Stat.MEAN).orElseThrow();
        double waitTwo = two.repetitions().get(0).models().get("chat-lora").number(Metric.TTFT, Stat.MEAN).orElseThrow();
        assertThat(waitOne).as("chat-lora's mean TTFT with one slot against two, ms").isGreaterThan(2 * waitTwo);
    }
}
