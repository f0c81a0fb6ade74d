package io.servebench.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Keeps every record of a run, for who wants them all at its end (a short run, a test, a comparison with a truth
 * server), and passes each on to another listener. A long run aggregates its records as they come instead: a record
 * holds every token event's time. Thread-safe.
 */
public final class RecordCollector implements LoadListener {

    private final LoadListener next;
    private final List<RequestRecord> records = new ArrayList<>();

    /** A collector that passes nothing on. */
    public RecordCollector() {
        this(LoadListener.NONE);
    }

    /** A collector that passes every call on to {@code next}. */
    public RecordCollector(LoadListener next) {
        this.next = next;
    }

    @Override
    public void onSend(long id) {
        next.onSend(id);
    }

    @Override
    public void onComplete(RequestRecord record) {
        synchronized (this) {
            records.add(record);
        }
        next.onComplete(record);
    }

    /** The records so far, in id order. */
    public synchronized List<RequestRecord> records() {
        List<RequestRecord> sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparingLong(RequestRecord::id));
        return sorted;
    }
}
