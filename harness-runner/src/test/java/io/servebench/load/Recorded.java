package io.servebench.load;

import io.servebench.http.PoolStats;
import io.servebench.workload.RequestSpec;

import java.util.Iterator;
import java.util.List;

/**
 * A run of the load generator, or of its virtual twin, with every record kept ({@link RecordCollector}), for the
 * tests that look at them; a run itself keeps none.
 */
record Recorded(LoadResult result, List<RequestRecord> records) {

    static Recorded run(LoadGenerator generator, Target target, List<RequestSpec> specs, LoadParams params,
                        LoadListener listener) {
        RecordCollector collector = new RecordCollector(listener);
        return new Recorded(generator.run(target, specs, params, collector), collector.records());
    }

    static Recorded run(LoadGenerator generator, Target target, Iterator<RequestSpec> supply, int warmup, int measured,
                        LoadParams params, LoadListener listener) {
        RecordCollector collector = new RecordCollector(listener);
        return new Recorded(generator.run(target, supply, warmup, measured, params, collector), collector.records());
    }

    static Recorded run(VirtualLoad load, Iterator<RequestSpec> supply, int warmup, int measured, LoadParams params,
                        LoadListener listener) {
        RecordCollector collector = new RecordCollector(listener);
        return new Recorded(load.run(supply, warmup, measured, params, collector), collector.records());
    }

    long measuredStartNs() {
        return result.measuredStartNs();
    }

    long measuredEndNs() {
        return result.measuredEndNs();
    }

    LoadResult.Stop stop() {
        return result.stop();
    }

    PoolStats connections() {
        return result.connections();
    }
}
