package io.servebench.execution;

import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadParams;
import io.servebench.load.RecordCollector;
import io.servebench.load.RequestRecord;
import io.servebench.load.Target;
import io.servebench.truth.Script;
import io.servebench.truth.TruthServer;
import io.servebench.workload.RequestSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Warms the harness's own code before the first measured trial of a JVM, as JMH's warm-up iterations
 * do: a short constant-rate burst against an in-process {@link TruthServer} takes the send path, the
 * connection pool, the socket reads, the SSE and chunk scans and the record building through the JIT,
 * so that the first trial is measured by the same compiled code as the last. Nothing of it is kept.
 */
public final class ClientWarmup {

    /** Requests per second and requests of the burst: enough calls for the JIT to compile every hot path. */
    static final double RATE = 400;
    static final int REQUESTS = 800;
    private static final int TOKENS = 32;

    private static final AtomicBoolean DONE = new AtomicBoolean();

    private ClientWarmup() {
    }

    /** Whether this JVM has warmed up already (a test that runs after another run in its JVM sees no line). */
    public static boolean done() {
        return DONE.get();
    }

    /** Runs the burst unless this JVM already has; prints one line about it to {@code out}. */
    public static void once(PrintWriter out) {
        if (!DONE.compareAndSet(false, true)) {
            return;
        }
        long start = System.nanoTime();
        List<RequestRecord> records = run();
        long failed = records.stream().filter(r -> !r.succeeded()).count();
        out.printf(Locale.ROOT, "Warmed up the load generator: %d requests against an in-process truth server in %.1f s%s%n",
                records.size(), (System.nanoTime() - start) / 1e9,
                failed == 0 ? "" : " (" + failed + " failed: " + records.stream().filter(r -> !r.succeeded())
                        .findFirst().orElseThrow().error() + ")");
    }

    private static List<RequestRecord> run() {
        Script script = Script.defaults().withTtft(Duration.ofMillis(2)).withGap(Duration.ofMillis(1))
                .withTokensPerRequest(TOKENS).withUsage(Script.Usage.CONTINUOUS);
        try (TruthServer server = TruthServer.start(script, 0)) {
            List<RequestSpec> specs = new ArrayList<>(REQUESTS);
            for (int i = 0; i < REQUESTS; i++) {
                specs.add(new RequestSpec(i, "warm-up request " + i, 3, TOKENS, true, false));
            }
            RecordCollector records = new RecordCollector();
            new LoadGenerator().run(new Target(server.baseUri(), TruthServer.MODEL), specs,
                    LoadParams.of(new ArrivalProfile.Constant(RATE)), records);
            return records.records();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the warm-up's truth server on 127.0.0.1", e);
        }
    }
}
