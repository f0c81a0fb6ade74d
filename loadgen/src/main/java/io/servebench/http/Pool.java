package io.servebench.http;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;

/**
 * The connections of one client and the requests waiting for one. Idle connections are handed out last
 * in, first out, so the most recently used (least likely to have been closed by the server) goes first.
 * One lock guards it all; it is taken once or twice per request, never per event.
 */
final class Pool {

    /**
     * An idle connection older than this is closed and replaced before a send can find it closed under
     * it: uvicorn, which serves vLLM and SGLang, closes connections idle for 5 s by default.
     */
    static final long RETIRE_IDLE_NS = 4_000_000_000L;
    /** A connection that lived at least this long (or served a response) is replaced when it closes. */
    private static final long REPLACE_AFTER_NS = 1_000_000_000L;

    private final int max;
    /** Makes a connection for an exchange ({@code null}: a spare), counted down on the latch if given. */
    private final BiFunction<Exchange, CountDownLatch, Connection> factory;
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private final ArrayDeque<Exchange> waiting = new ArrayDeque<>();
    private int open;
    private int peakOpen;
    private int spare;
    private boolean closed;
    private long opened;
    private long connectFailures;
    private String firstConnectFailure;
    private long sendsOnNewConnection;
    private long sendsAtLimit;
    private long openedAhead;
    private long retired;
    private long closedByServer;

    Pool(int max, BiFunction<Exchange, CountDownLatch, Connection> factory) {
        this.max = max;
        this.factory = factory;
    }

    /**
     * The idle connection to write {@code x} on now, with {@code x} attached; or {@code null} when {@code x}
     * went to a new connection (written once it connects) or waits for a busy one to free up.
     */
    Connection acquire(Exchange x) {
        Connection taken = null;
        Connection fresh = null;
        boolean cancelled = false;
        synchronized (this) {
            if (closed) {
                cancelled = true;
            } else {
                Connection c;
                while ((c = idle.pollFirst()) != null) {
                    if (c.state == Connection.IDLE) {
                        attach(c, x);
                        taken = c;
                        break;
                    }
                }
                if (taken != null) {
                    if (idle.size() < spare && open < max) {
                        openedAhead++;
                        fresh = newConnection(null, null);
                    }
                } else if (open < max) {
                    sendsOnNewConnection++;
                    fresh = newConnection(x, null);
                } else {
                    waiting.addLast(x);
                    sendsAtLimit++;
                }
            }
        }
        if (cancelled) {
            x.fail(HttpFailure.CANCELLED, "the client was closed before the request was sent", System.nanoTime());
        }
        if (fresh != null) {
            fresh.start();
        }
        return taken;
    }

    /**
     * Opens connections until {@code count} are open (never beyond the limit); from then on keeps
     * {@code spareIdle} idle ones on hand: whenever a send or a close leaves fewer idle, one more is opened
     * (within the limit). Idle connections beyond that retire when stale and are not replaced, so the pool
     * settles at what the load uses.
     *
     * @return counted down once for each connection opened, when it is established or has failed
     */
    CountDownLatch warm(int count, int spareIdle) {
        List<Connection> fresh = new ArrayList<>();
        CountDownLatch latch;
        synchronized (this) {
            spare = Math.max(0, spareIdle);
            latch = new CountDownLatch(closed ? 0 : Math.max(0, Math.min(count, max) - open));
            for (long i = latch.getCount(); i > 0; i--) {
                fresh.add(newConnection(null, latch));
            }
        }
        fresh.forEach(Connection::start);
        return latch;
    }

    /** {@code c} is established: the exchange to write on it now, or {@code null} when it became idle. */
    Exchange connected(Connection c) {
        synchronized (this) {
            opened++;
            if (c.exchange != null && c.state == Connection.CONNECTING) {
                c.state = Connection.BUSY;
                return c.exchange;
            }
            return reuse(c);
        }
    }

    /** {@code c}'s response ended and it may carry another: the waiting exchange to write on it, or null. */
    synchronized Exchange release(Connection c) {
        return reuse(c);
    }

    private Exchange reuse(Connection c) {
        Exchange next = closed ? null : waiting.pollFirst();
        if (next != null) {
            attach(c, next);
            return next;
        }
        c.state = Connection.IDLE;
        c.idleSinceNs = System.nanoTime();
        idle.addFirst(c);
        return null;
    }

    /**
     * The server closed (or wrote on) idle {@code c}: whether it was still idle, and so is to be closed. It leaves the
     * idle set at once: a sender that took it between this answer and its close would write on a closing connection
     * and wait for a response that never comes.
     */
    synchronized boolean closedWhileIdle(Connection c) {
        if (c.state != Connection.IDLE) {
            return false;
        }
        closedByServer++;
        withdraw(c);
        return true;
    }

    /** Whether idle {@code c} is old enough to retire, and so is to be closed (and replaced); it leaves the idle set. */
    synchronized boolean retireIfStale(Connection c, long nowNs) {
        if (c.state != Connection.IDLE || nowNs - c.idleSinceNs < RETIRE_IDLE_NS) {
            return false;
        }
        retired++;
        withdraw(c);
        return true;
    }

    /** Idle {@code c} is to be closed: out of the idle set, so that no send takes it, until {@link #closed} counts it. */
    private void withdraw(Connection c) {
        idle.remove(c);
        c.state = Connection.CLOSING;
    }

    synchronized void connectFailed(String failure) {
        connectFailures++;
        if (firstConnectFailure == null) {
            firstConnectFailure = failure;
        }
    }

    /**
     * {@code c} has closed. A waiting exchange gets a new connection; else one that had proved itself is
     * replaced while fewer than the spare count are idle.
     */
    void closed(Connection c) {
        Connection fresh = null;
        synchronized (this) {
            if (c.state == Connection.CLOSED) {
                return;
            }
            if (c.state == Connection.IDLE) {
                idle.remove(c);
            }
            c.state = Connection.CLOSED;
            open--;
            if (!closed) {
                Exchange next = waiting.pollFirst();
                if (next != null) {
                    fresh = newConnection(next, null);
                } else if (idle.size() < spare && (c.served || c.ageNs(System.nanoTime()) >= REPLACE_AFTER_NS)) {
                    fresh = newConnection(null, null);
                }
            }
        }
        if (fresh != null) {
            fresh.start();
        }
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** No more connections or sends; the waiting exchanges fail as cancelled. */
    void close() {
        List<Exchange> dropped;
        synchronized (this) {
            closed = true;
            dropped = new ArrayList<>(waiting);
            waiting.clear();
        }
        long now = System.nanoTime();
        for (Exchange x : dropped) {
            x.fail(HttpFailure.CANCELLED, "the client was closed while the request waited for a connection", now);
        }
    }

    synchronized PoolStats stats() {
        return new PoolStats(max, peakOpen, opened, openedAhead, connectFailures, firstConnectFailure,
                sendsOnNewConnection, sendsAtLimit, retired, closedByServer);
    }

    private void attach(Connection c, Exchange x) {
        c.exchange = x;
        x.carrier = c;
        c.lastActivityNs = System.nanoTime();
        c.state = Connection.BUSY;
    }

    private Connection newConnection(Exchange x, CountDownLatch latch) {
        open++;
        peakOpen = Math.max(peakOpen, open);
        Connection c = factory.apply(x, latch);
        if (x != null) {
            x.carrier = c;
        }
        return c;
    }

    /**
     * Ends {@code x} now as {@code failure}: taken out of the line when it waits for a connection, else by closing its
     * connection, the only way HTTP/1.1 has to call a request off (the server sees the client go away).
     */
    void abort(Exchange x, HttpFailure failure, String detail) {
        Connection carrier;
        boolean waited;
        synchronized (this) {
            waited = waiting.remove(x);
            carrier = x.carrier;
        }
        if (waited) {
            x.fail(failure, detail, System.nanoTime());
        } else if (carrier != null) {
            carrier.abort(x, failure, detail);
        }
    }
}
