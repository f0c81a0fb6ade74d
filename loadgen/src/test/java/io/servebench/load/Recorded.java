package io.servebench.load;

import io.servebench.http.PoolStats;
import io.servebench.workload.RequestSpec;

import java.util.Iterator;
import java.util.List;
import java.util.function.Function;

/**
 * A run of the load generator, or of its virtual twin, with every record kept ({@link RecordCollector}), for the
 * tests that look at them; a run itself keeps none. Public in the test jar for the runner's tests, which drive the
 * load generator beside the metrics and the virtual twin.
 */
public record Recorded(LoadResult result, List<RequestRecord> records) {

    public static Recorded run(LoadGenerator generator, Target target, List<RequestSpec> specs, LoadParams params,
                        LoadListener listener) {
        RecordCollector collector = new RecordCollector(listener);
        return new Recorded(generator.run(target, specs, params, collector), collector.records());
    }

    public static Recorded run(LoadGenerator generator, Target target, Iterator<RequestSpec> supply, int warmup, int measured,
                        LoadParams params, LoadListener listener) {
        RecordCollector collector = new RecordCollector(listener);
        return new Recorded(generator.run(target, supply, warmup, measured, params, collector), collector.records());
    }

    /** Any run that reports to a listener, such as the virtual twin's: {@code run} is given the collecting one. */
    public static Recorded of(LoadListener listener, Function<LoadListener, LoadResult> run) {
        RecordCollector collector = new RecordCollector(listener);
        return new Recorded(run.apply(collector), collector.records());
    }

    public long measuredStartNs() {
        return result.measuredStartNs();
    }

    public long measuredEndNs() {
        return result.measuredEndNs();
    }

    public LoadResult.Stop stop() {
        return result.stop();
    }

    public PoolStats connections() {
        return result.connections();
    }
}
