package io.servebench.execution;

import io.servebench.engine.SimulatedServer;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadListener;
import io.servebench.load.LoadParams;
import io.servebench.load.LoadResult;
import io.servebench.load.Recorded;
import io.servebench.load.RequestRecord;
import io.servebench.load.StopConditions;
import io.servebench.load.Target;
import io.servebench.load.VirtualLoad;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimParams;
import io.servebench.sim.VirtualEngine;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The virtual load keeps the load generator's rules: schedule, warm-up, caps, closed loops, stops, errors. */
class VirtualLoadTest {

    private static final String MODEL = "Qwen/Qwen3.5-9B";
    private static final long MS = 1_000_000;

    private static VirtualLoad load(List<String> flags) {
        VirtualEngine engine = VirtualEngine.of(SimParams.fromFlags(SimDialect.VLLM, MODEL, flags), 42);
        return new VirtualLoad(new SimulatedServer(engine), new Target(URI.create("virtual:" + MODEL), MODEL));
    }

    private static Iterator<RequestSpec> specs(int n, int maxTokens) {
        return IntStream.range(0, n)
                .mapToObj(i -> new RequestSpec(i, "tell me about the number " + i + " please", 9, maxTokens, true, false))
                .iterator();
    }

    private static Recorded run(VirtualLoad load, ArrivalProfile profile, int warmup, int measured, int maxTokens) {
        List<RequestRecord> heard = new ArrayList<>();
        Recorded result = Recorded.of(heard::add,
                l -> load.run(specs(warmup + measured, maxTokens), warmup, measured, LoadParams.of(profile), l));
        assertThat(heard).as("the listener hears every record").hasSize(result.records().size());
        return result;
    }

    @Test
    void requestsLeaveExactlyOnScheduleAndEachRecordCarriesEveryToken() {
        Recorded result = run(load(List.of()), new ArrivalProfile.Constant(4), 2, 8, 50);

        assertThat(result.records()).hasSize(10);
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.COMPLETED);
        long t0 = result.records().get(0).intendedNs();
        for (RequestRecord r : result.records()) {
            assertThat(r.succeeded()).as(r.toString()).isTrue();
            assertThat(r.warmup()).isEqualTo(r.id() < 2);
            assertThat(r.intendedNs()).isEqualTo(t0 + r.id() * 250 * MS);
            assertThat(r.sentNs()).isEqualTo(r.intendedNs());
            assertThat(r.firstTokenNs()).isGreaterThan(r.sentNs());
            assertThat(r.endNs()).isGreaterThan(r.firstTokenNs()).isEqualTo(r.doneNs());
            assertThat(r.outputTokens()).isEqualTo(50);
            assertThat(Arrays.stream(r.eventTokens()).sum()).isEqualTo(50);
            assertThat(r.eventTimesNs()).isSorted();
            assertThat(r.promptTokens()).isPositive();
        }
        assertThat(result.measuredStartNs()).isEqualTo(t0 + 500 * MS);
    }

    @Test
    void aLaterTurnIsSubmittedWhenTheTurnBeforeItEnds() {
        int[] turns = {0, 1, 2, 0, 1, 0};
        List<RequestSpec> specs = new ArrayList<>();
        for (int i = 0; i < turns.length; i++) {
            specs.add(new RequestSpec(i, "turn " + i + " of a chat", 5, 20, true, false, List.of(), null, turns[i]));
        }
        for (ArrivalProfile profile : List.of(new ArrivalProfile.Constant(20), new ArrivalProfile.Concurrent(2))) {
            Recorded result = Recorded.of(LoadListener.NONE,
                    l -> load(List.of()).run(specs.iterator(), 0, specs.size(), LoadParams.of(profile), l));
            List<RequestRecord> r = result.records();
            assertThat(r).as("%s", profile).hasSize(6).allSatisfy(x -> assertThat(x.succeeded()).isTrue());
            for (int i = 0; i < turns.length; i++) {
                if (turns[i] > 0) {
                    assertThat(r.get(i).intendedNs()).as("%s: request %d", profile, i).isEqualTo(r.get(i - 1).doneNs());
                }
            }
            if (profile instanceof ArrivalProfile.Constant) {
                // the schedule times the conversations: 50 ms apart
                assertThat(r.get(3).intendedNs() - r.get(0).intendedNs()).isEqualTo(50 * MS);
                assertThat(r.get(5).intendedNs() - r.get(0).intendedNs()).isEqualTo(100 * MS);
            } else {
                // two streams, each a conversation at a time: the third starts when one of the first two has ended
                assertThat(r.get(5).intendedNs()).isIn(r.get(2).doneNs(), r.get(4).doneNs());
            }
        }
    }

    @Test
    void underAConcurrencyCapOfOneEachRequestWaitsForThePreviousToEnd() {
        ArrivalProfile capped = new ArrivalProfile.Capped(new ArrivalProfile.Constant(100), 1);
        List<RequestRecord> records = run(load(List.of()), capped, 0, 5, 20).records();

        for (int i = 1; i < records.size(); i++) {
            RequestRecord previous = records.get(i - 1);
            RequestRecord r = records.get(i);
            assertThat(r.slotNs()).as("request " + i).isEqualTo(Math.max(r.intendedNs(), previous.doneNs()));
            assertThat(r.sentNs()).isEqualTo(r.slotNs());
        }
    }

    @Test
    void underAConcurrencyCapALaterTurnWaitsForASlotBehindRequestsThatAskedBeforeIt() {
        // ten conversations of three turns arriving at 100/s, at most two requests in flight; and at 10/s, where a
        // later turn due just after a first turn waits behind it while a slot no request has held is still free (it
        // was once sent at its due time, behind the engine's clock, and the engine refused it)
        cappedConversations(MODEL, 100, 5, 20);
        // found by a scan with `run --engine sim --model Qwen/Qwen3-8B --max-concurrency 2 --dataset multi-turn:...`
        cappedConversations("Qwen/Qwen3-8B", 10, 60, 12);
        cappedConversations("Qwen/Qwen3-8B", 8, 60, 16);
    }

    /** Ten conversations of three turns at {@code rate}, each turn {@code prompt} words more and {@code tokens} out. */
    private static void cappedConversations(String model, double rate, int prompt, int tokens) {
        List<RequestSpec> specs = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String words = "word ".repeat(prompt * (1 + i % 3));
            specs.add(new RequestSpec(i, words, prompt * (1 + i % 3), tokens, true, false, List.of(), null, i % 3));
        }
        ArrivalProfile capped = new ArrivalProfile.Capped(new ArrivalProfile.Constant(rate), 2);
        VirtualLoad load = new VirtualLoad(new SimulatedServer(VirtualEngine.of(SimParams.fromFlags(SimDialect.VLLM, model,
                List.of()), 42)), new Target(URI.create("virtual:" + model), model));
        List<RequestRecord> r = Recorded.of(LoadListener.NONE,
                l -> load.run(specs.iterator(), 0, specs.size(), LoadParams.of(capped), l)).records();

        assertThat(r).hasSize(30).allSatisfy(x -> assertThat(x.succeeded()).isTrue());
        for (RequestRecord x : r) {
            long inFlight = r.stream().filter(o -> o.sentNs() <= x.sentNs() && o.doneNs() > x.sentNs()).count();
            assertThat(inFlight).as("in flight when " + x.id() + " is sent").isLessThanOrEqualTo(2);
            assertThat(x.sentNs()).isEqualTo(x.slotNs()).isGreaterThanOrEqualTo(x.intendedNs());
            if (x.id() % 3 > 0) {
                // due when the turn before it ended; it waits for its slot from then
                assertThat(x.intendedNs()).isEqualTo(r.get((int) x.id() - 1).doneNs());
            }
        }
        if (rate == 100) {
            // at 100/s the cap is what holds them: later turns did wait for slots
            assertThat(r.stream().filter(x -> x.id() % 3 > 0).mapToLong(x -> x.slotNs() - x.intendedNs()).max()
                    .orElseThrow()).as("the longest wait of a later turn").isPositive();
        }
    }

    @Test
    void aClosedLoopOfTwoStreamsStartsEachRequestWhenAnEarlierOneEnds() {
        List<RequestRecord> records = run(load(List.of()), new ArrivalProfile.Concurrent(2), 0, 8, 30).records();

        assertThat(records).hasSize(8);
        Set<Long> ends = new HashSet<>();
        records.forEach(r -> ends.add(r.doneNs()));
        long t0 = records.get(0).intendedNs();
        assertThat(records.get(1).intendedNs()).isEqualTo(t0);
        for (RequestRecord r : records.subList(2, records.size())) {
            assertThat(ends).as("request " + r.id() + " starts when another ends").contains(r.intendedNs());
        }
        for (RequestRecord r : records) {
            long inFlight = records.stream().filter(o -> o.sentNs() <= r.sentNs() && o.doneNs() > r.sentNs()).count();
            assertThat(inFlight).as("in flight when " + r.id() + " starts").isLessThanOrEqualTo(2);
        }
    }

    @Test
    void aDurationLimitStopsSendingOnTheVirtualClock() {
        LoadParams params = LoadParams.of(new ArrivalProfile.Constant(4))
                .withStop(new StopConditions(Duration.ofSeconds(1), 0));
        Recorded result = Recorded.of(LoadListener.NONE, l -> load(List.of()).run(specs(20, 10), 0, 20, params, l));

        assertThat(result.records()).hasSize(4);
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.DURATION);
        assertThat(result.stop().planned()).isEqualTo(20);
    }

    @Test
    void aRequestBeyondTheContextFailsWithTheHttpErrorKindTheRealClientReports() {
        List<RequestRecord> records = run(load(List.of("--max-model-len=64")), new ArrivalProfile.Constant(1), 0, 1, 100)
                .records();

        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.httpStatus()).isEqualTo(400);
            assertThat(r.errorKind()).isEqualTo("http_400");
            assertThat(r.outputTokens()).isZero();
            assertThat(r.firstTokenNs()).isEqualTo(RequestRecord.NONE);
        });
    }
}
