package io.servebench.execution;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.Endpoint;
import io.servebench.engine.RunningEngine;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimParams;
import io.servebench.workload.SimTokenizer;
import io.servebench.sim.SimulatedEngine;
import io.servebench.workload.Conversation;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where a run's prompt counts come from for a real engine kind: its /tokenize, else the labelled estimate. */
class PromptCountSourceTest {

    private static RunningEngine at(URI base) {
        return new RunningEngine() {
            @Override
            public Endpoint endpoint() {
                return new Endpoint(base, "Qwen/Qwen3-8B", base.resolve("/metrics"));
            }

            @Override
            public void close() {
            }
        };
    }

    private static RunContext context(StringWriter out) {
        return context(out, new io.servebench.load.Interruption());
    }

    private static RunContext context(StringWriter out, io.servebench.load.Interruption interruption) {
        ExecutionParams params = new ExecutionParams(java.nio.file.Path.of("unused"), new io.servebench.engine.EngineParams(
                io.servebench.engine.EngineParams.Simulate.OFF, 42, java.time.Duration.ofMinutes(20),
                java.time.Duration.ofSeconds(30), "docker", java.nio.file.Path.of("unused"), null, null, "h100", null), 1, 42, false,
                java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(60), ClientOptions.DEFAULTS,
                io.servebench.measure.SloParams.NONE, false, false, io.servebench.metrics.gpu.TelemetryParams.DEFAULTS,
                ExecutionParams.DEFAULT_MAX_FAILED_SHARE);
        return new RunContext(params, new PrintWriter(out, true), List.of(), v -> null, interruption);
    }

    @Test
    void aVllmEnginesPromptsAreBuiltAndCountedByItsTokenize() throws Exception {
        try (SimulatedEngine server = SimulatedEngine.start(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of()), 0, 1)) {
            RunContext.Counted counted = context(new StringWriter())
                    .dataset("synthetic:in=fixed(100),out=fixed(5),count=5", at(server.baseUri()), EngineKinds.VLLM);
            assertThat(counted.counter()).isEqualTo("the engine's /tokenize");
            assertThat(counted.dataset().conversations()).extracting(Conversation::promptTokens).containsOnly(100);
            assertThat(counted.dataset().conversations())
                    .allSatisfy(c -> assertThat(new SimTokenizer().count(c.prompt())).isEqualTo(100));
        }
    }

    /**
     * A set counted by the engine is built once the engine is up, a call to its /tokenize a count: a run stopped then
     * gives the building up at its next count rather than at the set's end (a {@code synthetic:} set, written as a load
     * draws it, is given up in {@code Dataset.prepare}, before the load).
     */
    @Test
    void aSetCountedByTheEngineIsGivenUpWhenTheRunIsStopped() throws Exception {
        try (SimulatedEngine server = SimulatedEngine.start(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of()), 0, 1)) {
            io.servebench.load.Interruption interruption = new io.servebench.load.Interruption();
            RunContext context = context(new StringWriter(), interruption);
            interruption.interrupt("SIGTERM");
            assertThatThrownBy(() -> context.dataset("synthetic-sharegpt", at(server.baseUri()), EngineKinds.VLLM))
                    .isInstanceOf(java.util.concurrent.CancellationException.class)
                    .hasMessage("dataset synthetic-sharegpt: its building was stopped");
        }
    }

    @Test
    void anEngineWhoseTokenizeDoesNotAnswerGetsTheEstimateWithANote() {
        StringWriter out = new StringWriter();
        RunContext.Counted counted = context(out).dataset("synthetic:in=fixed(10),out=fixed(5),count=2",
                at(URI.create("http://127.0.0.1:9")), EngineKinds.SGLANG);
        assertThat(counted.counter()).startsWith("an estimate (words and punctuation");
        assertThat(out.toString()).contains("note: POST http://127.0.0.1:9/tokenize failed")
                .contains("prompt lengths of synthetic:in=fixed(10),out=fixed(5),count=2 are an estimate");
    }
}
