package io.servebench.metrics;

import io.servebench.load.RequestRecord;
import io.servebench.results.RequestTimeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * A repetition's request records, taken one at a time, as a {@link RequestTimeline}: what a report draws of each
 * request. Memory stays bounded however long the trial: past {@link #KEPT} requests, only every second one (by record
 * id) is kept, then every fourth, and so on.
 */
public final class RequestTimelines implements Consumer<RequestRecord> {

    /** The most requests one timeline draws: a row of about a pixel each in a 600-pixel chart. */
    public static final int MAX_REQUESTS = 1000;
    /** The most requests kept while reading, before every other one is let go. */
    static final int KEPT = 4 * MAX_REQUESTS;

    private final long gapNs;
    private final int max;
    private List<Summary> kept = new ArrayList<>();
    /** Requests whose id is a multiple of this are kept. */
    private long every = 1;
    private int measured;

    /** What is drawn of one request, times in ns on the records' clock. */
    private record Summary(long id, long intended, long sent, long firstToken, long end, RequestTimeline.Outcome outcome,
                           long[] gaps) {
    }

    /**
     * @param gap the shortest gap between token events to mark
     * @param max the most requests to draw: every k-th, in intended-send order, of more
     */
    public RequestTimelines(Duration gap, int max) {
        this.gapNs = gap.toNanos();
        this.max = max;
    }

    /** Takes one record; warm-up ones are left out. */
    @Override
    public void accept(RequestRecord r) {
        if (r.warmup()) {
            return;
        }
        measured++;
        if (r.id() % every != 0) {
            return;
        }
        long[] events = r.eventTimesNs();
        List<Long> gaps = new ArrayList<>();
        for (int e = 1; e < events.length; e++) {
            if (events[e] - events[e - 1] >= gapNs) {
                gaps.add(events[e - 1]);
                gaps.add(events[e]);
            }
        }
        long intended = r.intendedNs() != RequestRecord.NONE ? r.intendedNs() : r.sentNs();
        long sent = r.sentNs() != RequestRecord.NONE ? r.sentNs() : intended;
        long end = r.doneNs() != RequestRecord.NONE ? r.doneNs() : r.endNs() != RequestRecord.NONE ? r.endNs() : sent;
        kept.add(new Summary(r.id(), intended, sent, r.firstTokenNs(), end, r.succeeded() ? RequestTimeline.Outcome.SUCCEEDED
                : r.cancelledByClient() ? RequestTimeline.Outcome.CANCELLED : RequestTimeline.Outcome.FAILED,
                gaps.stream().mapToLong(Long::longValue).toArray()));
        if (kept.size() > KEPT) {
            every *= 2;
            kept = new ArrayList<>(kept.stream().filter(s -> s.id() % every == 0).toList());
        }
    }

    /** The timeline of the records taken: times in seconds from the first intended send. */
    public RequestTimeline timeline() {
        List<Summary> ordered = kept.stream().sorted(Comparator.comparingLong(Summary::intended)).toList();
        int step = Math.max(1, (ordered.size() + max - 1) / max);
        long origin = ordered.isEmpty() ? 0 : ordered.get(0).intended();
        List<RequestTimeline.Request> drawn = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i += step) {
            Summary s = ordered.get(i);
            List<Double> gaps = new ArrayList<>();
            for (long g : s.gaps()) {
                gaps.add(seconds(g, origin));
            }
            drawn.add(new RequestTimeline.Request(s.id(), seconds(s.intended(), origin), seconds(s.sent(), origin),
                    s.firstToken() == RequestRecord.NONE ? Double.NaN : seconds(s.firstToken(), origin),
                    seconds(s.end(), origin), s.outcome(), gaps));
        }
        return new RequestTimeline(gapNs / 1e6, drawn, measured);
    }

    private static double seconds(long nanos, long origin) {
        return (nanos - origin) / 1e9;
    }
}
