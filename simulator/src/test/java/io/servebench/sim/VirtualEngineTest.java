package io.servebench.sim;

import io.servebench.truth.SentEvent;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.servebench.sim.SchedulerTest.settings;
import static io.servebench.sim.SchedulerTest.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

/** The virtual engine against hand-computed step times (SchedulerTest's model) and against the real-time scheduler. */
class VirtualEngineTest {

    private static final long MS = 1_000_000;

    /** A completions body whose prompt is {@code promptWords} one-token words and whose answer is exactly {@code output} tokens. */
    private static byte[] body(int promptWords, int output) {
        String prompt = "w ".repeat(promptWords).strip();
        return ("{\"model\":\"test\",\"prompt\":\"" + prompt + "\",\"max_tokens\":" + output + ",\"min_tokens\":" + output
                + ",\"ignore_eos\":true,\"stream\":true}").getBytes(StandardCharsets.UTF_8);
    }

    private static List<Long> dueTimes(GroundTruth truth) {
        return truth.events().stream().map(SentEvent::dueNs).toList();
    }

    @Test
    void aLoneRequestGetsEachTokenAtTheEndOfItsStep() {
        VirtualEngine engine = VirtualEngine.of(settings(4096, 8, 512, 1e9), 1);
        engine.submit("a", 5 * MS, false, body(16, 3));

        List<GroundTruth> done = engine.runToEnd();

        assertThat(done).hasSize(1);
        GroundTruth a = done.get(0);
        assertThat(a.httpStatus()).isEqualTo(200);
        assertThat(a.error()).isNull();
        assertThat(a.promptTokens()).isEqualTo(16);
        assertThat(a.completionTokens()).isEqualTo(3);
        // the prefill step (16 tokens of context) emits the first token, each decode step one more
        long t1 = 5 * MS + step(1, 16);
        long t2 = t1 + step(1, 17);
        long t3 = t2 + step(1, 18);
        assertThat(dueTimes(a)).containsExactly(t1, t2, t3);
        assertThat(a.events()).allSatisfy(e -> assertThat(e.writtenNs()).isEqualTo(e.dueNs()));
    }

    @Test
    void itAgreesWithTheRealTimeSchedulerOnEveryDueTime() throws InterruptedException {
        int[][] requests = {{0, 40, 5}, {0, 24, 8}, {3, 600, 4}, {9, 16, 6}};
        SimParams settings = settings(4096, 2, 512, 1e9);

        VirtualEngine virtual = VirtualEngine.of(settings, 7);
        for (int i = 0; i < requests.length; i++) {
            virtual.submit("r" + i, requests[i][0] * MS, false, body(requests[i][1], requests[i][2]));
        }
        Map<String, List<Long>> inVirtualTime = new HashMap<>();
        for (GroundTruth t : virtual.runToEnd()) {
            inVirtualTime.put(t.requestId(), dueTimes(t));
        }

        Map<String, List<Long>> inRealTime = new HashMap<>();
        try (Scheduler scheduler = new Scheduler(settings)) {
            // 100 ms ahead: every request is handed over before the first step's decisions
            long t0 = System.nanoTime() + 100 * MS;
            List<SimRequest> sent = new ArrayList<>();
            for (int i = 0; i < requests.length; i++) {
                SimRequest r = new SimRequest("r" + i, t0 + requests[i][0] * MS, requests[i][1], new long[0],
                        requests[i][2], 1);
                scheduler.submit(r);
                sent.add(r);
            }
            for (SimRequest r : sent) {
                List<Long> due = new ArrayList<>();
                SimRequest.Emission e;
                do {
                    e = r.emissions.poll(10, TimeUnit.SECONDS);
                    assertThat(e).as("an emission of " + r.id).isNotNull();
                    due.add(e.dueNs() - t0);
                } while (!e.last());
                inRealTime.put(r.id, due);
            }
        }

        assertThat(inVirtualTime.keySet()).containsExactlyInAnyOrderElementsOf(inRealTime.keySet());
        for (String id : inRealTime.keySet()) {
            List<Long> real = inRealTime.get(id);
            List<Long> virt = inVirtualTime.get(id);
            assertThat(virt).as(id).hasSameSizeAs(real);
            for (int i = 0; i < real.size(); i++) {
                assertThat(virt.get(i)).as(id + " event " + i).isCloseTo(real.get(i), offset(0L));
            }
        }
    }

    @Test
    void aRequestLongerThanTheContextIsRejectedAtItsArrivalWithTheEnginesMessage() {
        VirtualEngine engine = VirtualEngine.of(settings(64, 8, 512, 1e9), 1);
        engine.submit("long", 2 * MS, false, body(60, 10));

        List<GroundTruth> done = engine.runToEnd();

        assertThat(done).singleElement().satisfies(t -> {
            assertThat(t.httpStatus()).isEqualTo(400);
            assertThat(t.receivedNs()).isEqualTo(2 * MS);
            assertThat(t.events()).isEmpty();
            assertThat(t.error()).contains("64");
        });
    }

    @Test
    void advancingStopsBeforeAStepThatStartsLaterAndThePastCannotBeChanged() {
        VirtualEngine engine = VirtualEngine.of(settings(4096, 8, 512, 1e9), 1);
        engine.submit("a", 0, false, body(16, 3));

        assertThat(engine.advance(1)).isEmpty();
        // the prefill step started at 0 and ends after step(1, 16): the next starts there, after 1 ns
        assertThat(engine.clockNs()).isEqualTo(step(1, 16));
        assertThatThrownBy(() -> engine.submit("early", -1, false, body(16, 3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too late for the step");
        engine.submit("late", 1, false, body(16, 3));
        assertThat(engine.runToEnd()).extracting(GroundTruth::requestId).containsExactly("a", "late");
    }
}
