package io.servebench.loadcheck;

import io.servebench.load.ListenerThread;
import io.servebench.load.LoadJvm;
import io.servebench.load.LoadListener;
import io.servebench.load.RequestRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The check's load over time, every {@value #STEP_MS} ms: requests sent and completed, those in flight, the collector's
 * pauses and the listeners' backlog. When the requests in flight climb well above what the rate needs (an excursion,
 * which at the pool's limit turns into schedule lag), the report shows the steps around it, so that what came first can
 * be read off: a stall of the sender followed by its catch-up, a server falling behind, a collector's pause.
 */
final class LoadTimeline implements LoadListener, AutoCloseable {

    static final int STEP_MS = 100;
    /** In flight above this share of the streams the rate needs is an excursion. */
    static final double EXCURSION = 1.25;
    /** Steps shown before the excursion began. */
    private static final int BEFORE = 10;
    /** Most steps shown. */
    private static final int SHOWN = 40;

    /** One step: ms since the start, requests sent and completed so far, GC pause ms so far, listeners' backlog. */
    record Step(long ms, long sent, long completed, long gcMs, long backlog) {
        long inFlight() {
            return sent - completed;
        }
    }

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final List<Step> steps = new ArrayList<>();
    private final ScheduledExecutorService sampler;
    private final long startNs = System.nanoTime();
    private volatile ListenerThread listeners;

    LoadTimeline() {
        sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "servebench-load-timeline");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(this::sample, 0, STEP_MS, TimeUnit.MILLISECONDS);
    }

    /** Samples {@code listeners}' backlog too. */
    void watch(ListenerThread listeners) {
        this.listeners = listeners;
    }

    @Override
    public void onSend(long id) {
        sent.incrementAndGet();
    }

    @Override
    public void onComplete(RequestRecord record) {
        completed.incrementAndGet();
    }

    private void sample() {
        long gc = LoadJvm.pausedMs();
        ListenerThread l = listeners;
        Step step = new Step((System.nanoTime() - startNs) / 1_000_000, sent.get(), completed.get(), gc,
                l == null ? 0 : l.backlog());
        synchronized (steps) {
            steps.add(step);
        }
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }

    /** The most milliseconds the collector stopped this process within one step: about its longest pause. */
    long longestPauseMs() {
        synchronized (steps) {
            long longest = 0;
            for (int i = 1; i < steps.size(); i++) {
                longest = Math.max(longest, steps.get(i).gcMs() - steps.get(i - 1).gcMs());
            }
            return longest;
        }
    }

    /**
     * The steps around the first excursion above {@code expectedStreams}: from a second before it began to its peak,
     * at most {@value #SHOWN}, as table lines; none when in flight never rose that far.
     */
    List<String> excursion(int expectedStreams) {
        List<Step> all;
        synchronized (steps) {
            all = List.copyOf(steps);
        }
        int start = -1;
        for (int i = 0; i < all.size() && start < 0; i++) {
            if (all.get(i).inFlight() > EXCURSION * expectedStreams) {
                start = i;
            }
        }
        if (start < 0) {
            return List.of();
        }
        int peak = start;
        for (int i = start; i < all.size(); i++) {
            if (all.get(i).inFlight() > all.get(peak).inFlight()) {
                peak = i;
            }
        }
        int from = Math.max(1, start - BEFORE);
        int to = Math.min(all.size() - 1, Math.max(peak + 2, from + 1));
        to = Math.min(to, from + SHOWN - 1);
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "in flight rose above %.0f%% of the %,d streams the rate needs at %.1f s and"
                + " peaked at %,d at %.1f s; every %d ms:", 100 * EXCURSION, expectedStreams, all.get(start).ms() / 1e3,
                all.get(peak).inFlight(), all.get(peak).ms() / 1e3, STEP_MS));
        lines.add("      s     sent/s  completed/s  in flight  GC pause ms  listener backlog");
        for (int i = from; i <= to; i++) {
            Step s = all.get(i);
            Step p = all.get(i - 1);
            double span = (s.ms() - p.ms()) / 1e3;
            lines.add(String.format(Locale.ROOT, "%7.1f %10.0f %12.0f %10d %12d %17d", s.ms() / 1e3,
                    (s.sent() - p.sent()) / span, (s.completed() - p.completed()) / span, s.inFlight(), s.gcMs() - p.gcMs(),
                    s.backlog()));
        }
        return lines;
    }
}
