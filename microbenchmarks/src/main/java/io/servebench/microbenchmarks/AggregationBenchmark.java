package io.servebench.microbenchmarks;

import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.measure.SloParams;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.results.RepetitionResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A trial's aggregation of 30,000 requests of 100 token events each (3 million events at 10 ms a token), sent at
 * {@code rate} req/s: at 100 about 10,000 events wait for the watermark at a time, at 5,000 (a load worker's share of
 * 10,000 req/s split in two) about 500,000.
 * {@code endOfTrial}: what is left at the trial's end when every record was taken as its request completed, with the
 * run's clock, as the runner does ({@code finish}). {@code wholeTrial}: the same with the taking included, the work
 * spread over the trial. {@code allAtTheEnd}: every record taken once the trial is over. Seconds per trial.
 *
 * <p>{@code java -jar microbenchmarks/target/microbenchmarks.jar Aggregation -f 1 -wi 1 -i 3}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class AggregationBenchmark {

    private static final int REQUESTS = 30_000;
    private static final int EVENTS = 100;

    @Param({"100", "5000"})
    public int rate;

    private List<RequestRecord> records;

    @Setup(Level.Trial)
    public void setUp() {
        records = new ArrayList<>(REQUESTS);
        long gap = 10_000_000L;
        long interval = 1_000_000_000L / rate;
        for (int id = 0; id < REQUESTS; id++) {
            long sent = 1_000_000_000L + id * interval;
            long[] times = new long[EVENTS];
            int[] tokens = new int[EVENTS];
            for (int k = 0; k < EVENTS; k++) {
                times[k] = sent + 40_000_000L + k * gap;
                tokens[k] = 1;
            }
            long done = times[EVENTS - 1] + 100_000;
            records.add(new RequestRecord(id, false, sent, sent, times[0], times[0], times[EVENTS - 1], done, 50, EVENTS,
                    TokenSource.USAGE, times, tokens, TokenSource.CONTINUOUS_USAGE, 1, 0, 200, null));
        }
    }

    /** The records taken as they completed, before the end of the trial. */
    private MetricsAggregator.Running taken;

    @Setup(Level.Invocation)
    public void take() {
        taken = takeAsTheyComplete();
    }

    private MetricsAggregator.Running takeAsTheyComplete() {
        long[] now = {Long.MIN_VALUE};
        MetricsAggregator.Running running = new MetricsAggregator().start(SloParams.NONE, () -> now[0]);
        // requests are sent 1/rate apart and last about a second: send each, complete those that ended by then
        int completed = 0;
        for (RequestRecord r : records) {
            now[0] = r.sentNs();
            while (records.get(completed).doneNs() <= now[0]) {
                running.onComplete(records.get(completed++));
            }
            running.onSend(r.id());
        }
        while (completed < records.size()) {
            now[0] = records.get(completed).doneNs();
            running.onComplete(records.get(completed++));
        }
        return running;
    }

    @Benchmark
    public RepetitionResult endOfTrial() {
        return taken.finish();
    }

    @Benchmark
    public RepetitionResult wholeTrial() {
        return takeAsTheyComplete().finish();
    }

    @Benchmark
    public RepetitionResult allAtTheEnd() {
        return new MetricsAggregator().aggregate(records, SloParams.NONE);
    }
}
