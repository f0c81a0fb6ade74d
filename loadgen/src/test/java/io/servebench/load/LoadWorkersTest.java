package io.servebench.load;

import io.servebench.truth.Script;
import io.servebench.truth.TruthServer;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A load spread over worker processes against one sent by a single process, on the truth server. */
class LoadWorkersTest {

    private TruthServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** Conversations of one to three turns, indices counting every turn, as a multi-turn dataset draws them. */
    private static List<RequestSpec> conversations(int requests) {
        List<RequestSpec> specs = new ArrayList<>();
        int conversation = 0;
        while (specs.size() < requests) {
            int turns = 1 + conversation++ % 3;
            for (int t = 0; t < turns && specs.size() < requests; t++) {
                int i = specs.size();
                specs.add(new RequestSpec(i, "p" + i, 2, 3, false, false, List.of(), null, t));
            }
        }
        return specs;
    }

    private static LoadParams poisson(double rate) {
        return LoadParams.of(new ArrivalProfile.Poisson(rate, 42)).withWarmupTime(Duration.ofMillis(150));
    }

    @Test
    void workersSendTheSameRequestsAtTheSameIntendedTimesAsOneProcessEachRecordOnce() throws Exception {
        server = TruthServer.start(Script.defaults().withTtft(Duration.ofMillis(5)).withTokensPerRequest(3), 0);
        Target target = new Target(server.baseUri(), "m");
        List<RequestSpec> specs = conversations(240);
        LoadParams params = poisson(400);

        RecordCollector single = new RecordCollector(LoadListener.NONE);
        new LoadGenerator().run(List.of(target), Spread.roundRobin(1), specs.iterator(), 10, 230, params, single,
                new Interruption());
        long afterSingle = server.requestsReceived();
        RecordCollector spread = new RecordCollector(LoadListener.NONE);
        LoadResult result = new LoadWorkers(3, null).run(List.of(target), Spread.roundRobin(1), specs.iterator(), 10,
                230, params, spread, new Interruption());

        assertThat(afterSingle).isEqualTo(240);
        assertThat(server.requestsReceived() - afterSingle).as("requests the server got from the workers").isEqualTo(240);
        Map<Long, RequestRecord> one = byId(single.records());
        Map<Long, RequestRecord> many = byId(spread.records());
        assertThat(spread.records()).as("every record once").hasSize(240);
        assertThat(many.keySet()).isEqualTo(one.keySet());
        assertThat(many.values()).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        // a conversation's first turn goes out on the schedule: its intended time, from the load's first, is the same
        long oneStart = one.get(0L).intendedNs();
        long manyStart = many.get(0L).intendedNs();
        for (RequestSpec s : specs) {
            RequestRecord a = one.get((long) s.index());
            RequestRecord b = many.get((long) s.index());
            assertThat(b.warmup()).as("warm-up of request %d", s.index()).isEqualTo(a.warmup());
            if (s.turn() == 0) {
                assertThat(b.intendedNs() - manyStart).as("intended time of request %d", s.index())
                        .isEqualTo(a.intendedNs() - oneStart);
            }
        }
        assertThat(many.values().stream().filter(RequestRecord::warmup).count()).isGreaterThan(10);
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.COMPLETED);
        assertThat(result.stop().sent()).isEqualTo(240);
        assertThat(result.measuredStartNs()).isEqualTo(many.values().stream().filter(r -> !r.warmup())
                .mapToLong(RequestRecord::intendedNs).min().orElseThrow());
        // several processes, several pools: each opened its own connections
        assertThat(result.connections().opened()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aWorkerThatDiesFailsTheLoadAndTheRecordsThatCameAreKept() throws Exception {
        server = TruthServer.start(Script.defaults().withTtft(Duration.ofMillis(20)).withTokensPerRequest(2), 0);
        Target target = new Target(server.baseUri(), "m");
        List<RequestSpec> specs = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            specs.add(new RequestSpec(i, "p" + i, 2, 2, false, false));
        }
        RecordCollector records = new RecordCollector(new LoadListener() {
            private int seen;

            @Override
            public void onComplete(RequestRecord record) {
                // once the load is well under way, one worker is killed as the OOM killer would
                if (++seen == 40) {
                    ProcessHandle.current().children().findFirst().orElseThrow().destroyForcibly();
                }
            }
        });
        assertThatThrownBy(() -> new LoadWorkers(2, null).run(List.of(target), Spread.roundRobin(1), specs.iterator(), 0,
                400, LoadParams.of(new ArrivalProfile.Constant(100)), records, new Interruption()))
                .isInstanceOf(LoadWorkers.WorkerFailure.class)
                .hasMessageContaining("died").hasMessageContaining("records it had sent are kept");
        // what reached the coordinator before is there, each once; the other worker stopped instead of going on
        assertThat(records.records()).hasSizeGreaterThanOrEqualTo(40).hasSizeLessThan(400);
        assertThat(byId(records.records())).hasSize(records.records().size());
        assertThat(ProcessHandle.current().children().toList()).as("workers left").isEmpty();
    }

    @Test
    void aWorkerEndsWithItsCoordinatorsPipe() throws Exception {
        server = TruthServer.start(Script.defaults().withTtft(Duration.ofSeconds(30)).withTokensPerRequest(1), 0);
        List<RequestSpec> specs = List.of(new RequestSpec(0, "p", 2, 1, false, false));
        WorkerJob job = new WorkerJob(List.of(server.baseUri().toString()), "m", false, List.of(1), "CHAT", 1_000_000_000L,
                60_000_000_000L, 10, true, 0, null, "", 0, 0, false, 0, null, 0, new long[] {0}, specs);
        Process worker = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), LoadWorker.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        var in = new java.io.PrintWriter(worker.getOutputStream(), true);
        var out = new java.io.BufferedReader(new java.io.InputStreamReader(worker.getInputStream()));
        in.println(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(job));
        assertThat(out.readLine()).isEqualTo(LoadWorkers.READY + LoadWorkers.host());
        // a coordinator on another machine reads the worker's clock: here, one clock, read between the question and
        // the answer
        long before = System.nanoTime();
        in.println(LoadWorkers.CLOCK);
        String reading = out.readLine();
        long after = System.nanoTime();
        assertThat(reading).startsWith(LoadWorkers.CLOCK + " ");
        assertThat(Long.parseLong(reading.substring(2))).isBetween(before, after);
        in.println(LoadWorkers.START + System.nanoTime());
        assertThat(out.readLine()).as("the send").startsWith(LoadWorkers.SENT + "0 ");
        // the coordinator is gone (killed, say): its end of the pipe closes with it
        in.close();
        assertThat(worker.waitFor(10, TimeUnit.SECONDS)).as("worker ended").isTrue();
    }

    @Test
    void aClosedLoopOrALoadThatCountsAllItsRequestsIsNotSpread() {
        assertThat(LoadWorkers.refusal(LoadParams.of(new ArrivalProfile.Concurrent(8)))).isPresent();
        assertThat(LoadWorkers.refusal(LoadParams.of(new ArrivalProfile.Capped(new ArrivalProfile.Constant(10), 4))))
                .get().asString().contains("maxConcurrency");
        assertThat(LoadWorkers.refusal(LoadParams.of(new ArrivalProfile.Constant(10))
                .withStop(new StopConditions(null, 5)))).get().asString().contains("maxErrors");
        assertThat(LoadWorkers.refusal(LoadParams.of(new ArrivalProfile.Constant(10)))).isEmpty();
    }

    private static Map<Long, RequestRecord> byId(List<RequestRecord> records) {
        return records.stream().collect(Collectors.toMap(RequestRecord::id, Function.identity(), (a, b) -> {
            throw new AssertionError("record " + a.id() + " twice");
        }, TreeMap::new));
    }
    @Test
    void workersOnOtherNodesReachAnEngineOfThisMachineByItsNameAndEverythingElseAsGiven() throws Exception {
        String here = java.net.InetAddress.getLocalHost().getHostName();
        LoadWorkers.Placement threeNodes = LoadWorkers.Placement.of(Map.of("SLURM_JOB_ID", "7", "SLURM_JOB_NUM_NODES", "3"));
        assertThat(threeNodes.otherMachines()).isTrue();
        assertThat(threeNodes.reachable(URI.create("http://127.0.0.1:8000"))).isEqualTo(URI.create("http://" + here + ":8000"));
        assertThat(threeNodes.reachable(URI.create("http://localhost:30000/prefix")))
                .isEqualTo(URI.create("http://" + here + ":30000/prefix"));
        assertThat(threeNodes.reachable(URI.create("http://[::1]:8000"))).isEqualTo(URI.create("http://" + here + ":8000"));
        assertThat(threeNodes.reachable(URI.create("http://127.0.0.2:8000"))).isEqualTo(URI.create("http://" + here + ":8000"));
        // a server named or addressed on the network is reached as the study gives it
        assertThat(threeNodes.reachable(URI.create("http://gpu-host:8000"))).isEqualTo(URI.create("http://gpu-host:8000"));
        assertThat(threeNodes.reachable(URI.create("http://10.1.2.3:8000"))).isEqualTo(URI.create("http://10.1.2.3:8000"));
        assertThat(threeNodes.toString()).contains("over 3 nodes").contains("the 2 after the engine's").contains(here);
        // on one node, or off SLURM, the workers share this machine's loopback
        for (LoadWorkers.Placement here1 : List.of(LoadWorkers.Placement.HERE,
                LoadWorkers.Placement.of(Map.of("SLURM_JOB_ID", "7", "SLURM_JOB_NUM_NODES", "1")))) {
            assertThat(here1.otherMachines()).isFalse();
            assertThat(here1.reachable(URI.create("http://127.0.0.1:8000"))).isEqualTo(URI.create("http://127.0.0.1:8000"));
        }
    }
}
