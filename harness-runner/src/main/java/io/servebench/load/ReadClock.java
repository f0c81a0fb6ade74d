package io.servebench.load;

import org.apache.hc.core5.reactor.IOSession;
import org.apache.hc.core5.reactor.IOSessionListener;

/**
 * Stamps the start of every network read: httpcore5's I/O reactor calls {@link #inputReady} on the I/O
 * thread when a connection becomes readable, right before the connection's handler reads the socket and
 * hands the bytes, chunk by chunk, to the response consumers. The consumers, running on the same thread
 * inside that handler call, take the stamp with {@link #readStartNs()}, so every event parsed from one
 * readiness event shares one timestamp however many HTTP chunks (and so {@code consume} calls) it holds.
 *
 * <p>The stamp is per I/O thread (a thread serves many connections, but one at a time).
 */
final class ReadClock implements IOSessionListener {

    private static final ThreadLocal<long[]> LAST_READ = ThreadLocal.withInitial(() -> new long[]{RequestRecord.NONE});

    /**
     * How long after a readiness stamp bytes may still be taken to come from that read. httpcore5 can read
     * the socket again within one readiness event; when handling what came first is slow (a cold JVM, a
     * busy core), bytes that arrived meanwhile would borrow the earlier stamp and make a TTFT too short.
     */
    static final long MAX_READ_SPAN_NS = 1_000_000;

    /**
     * The time the current read on this I/O thread began, or {@link System#nanoTime()} now when this
     * thread has never been told of one (bytes consumed outside a readiness event) or when the stamp is
     * more than {@link #MAX_READ_SPAN_NS} old: the bytes then came from a later read of the same readiness
     * event, which is stamped now, and later bytes of that read share the new stamp.
     */
    static long readStartNs() {
        long[] last = LAST_READ.get();
        long now = System.nanoTime();
        if (last[0] == RequestRecord.NONE) {
            return now;
        }
        if (now - last[0] > MAX_READ_SPAN_NS) {
            last[0] = now;
        }
        return last[0];
    }

    @Override
    public void inputReady(IOSession session) {
        LAST_READ.get()[0] = System.nanoTime();
    }

    @Override
    public void connected(IOSession session) {
        // only reads are timed
    }

    @Override
    public void startTls(IOSession session) {
        // only reads are timed
    }

    @Override
    public void outputReady(IOSession session) {
        // only reads are timed
    }

    @Override
    public void timeout(IOSession session) {
        // only reads are timed
    }

    @Override
    public void exception(IOSession session, Exception ex) {
        // failures reach the exchange through the client's own callbacks
    }

    @Override
    public void disconnected(IOSession session) {
        // only reads are timed
    }
}
