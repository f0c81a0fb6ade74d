package io.servebench.load;

import io.servebench.stats.Statistics;

import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Optional;

/**
 * Over-saturation: a server that takes requests in faster than it finishes them queues them, so every request's TTFT and
 * the requests in flight grow for as long as the load lasts, and figures measured past that point describe the queue,
 * not the server. The rule, checked at each completion on the load's clock: over the completions of the last
 * {@code window}, both the TTFT of each successful request (against the time of its first token) and the requests in
 * flight at each completion (against its time) rise, each by its least-squares slope, whose 95% interval (Student's
 * t, n − 2 degrees of freedom) lies above 0, and across the window by at least a quarter of its mean there, so that a
 * significant but slight drift is not called saturation; with at least {@link #MIN_POINTS} points each, once the load
 * has completed requests for one window. Once it holds, it holds for the rest of the load. Thread-safe.
 */
final class SaturationDetector implements LoadListener {

    /** The fewest points a slope is estimated from. */
    static final int MIN_POINTS = 10;
    /** How much a quantity must rise across the window, as a share of its mean there. */
    static final double MIN_RISE = 0.25;

    private final long windowNs;
    private final Series ttft = new Series();
    private final Series inFlight = new Series();
    private long origin = RequestRecord.NONE;
    private int flying;
    private String verdict;

    /** @param windowNs the window's length, ns */
    SaturationDetector(long windowNs) {
        if (windowNs <= 0) {
            throw new IllegalArgumentException("a saturation window lasts a positive time, got " + windowNs + " ns");
        }
        this.windowNs = windowNs;
    }

    @Override
    public synchronized void onSend(long id) {
        flying++;
    }

    @Override
    public synchronized void onComplete(RequestRecord r) {
        flying--;
        if (verdict != null) {
            return;
        }
        if (origin == RequestRecord.NONE) {
            origin = r.doneNs();
        }
        if (r.succeeded() && r.firstTokenNs() != RequestRecord.NONE) {
            ttft.add(seconds(r.firstTokenNs()), (r.firstTokenNs() - r.sentNs()) / 1e9);
        }
        inFlight.add(seconds(r.doneNs()), flying);
        double from = seconds(r.doneNs()) - windowNs / 1e9;
        ttft.dropBefore(from);
        inFlight.dropBefore(from);
        if (r.doneNs() - origin < windowNs) {
            return;
        }
        Optional<double[]> t = ttft.rising();
        Optional<double[]> q = inFlight.rising();
        if (t.isPresent() && q.isPresent()) {
            verdict = String.format(Locale.ROOT, "over-saturated: over the last %.3g s, TTFT rose %.2f s (%.3f s a second) "
                    + "and requests in flight %.1f (%.2f a second), both slopes above 0 at 95%% and by a quarter of their "
                    + "mean or more", windowNs / 1e9, t.get()[0] * windowNs / 1e9, t.get()[0],
                    q.get()[0] * windowNs / 1e9, q.get()[0]);
        }
    }

    /** Why the load is over-saturated, once it is; empty until then. */
    synchronized Optional<String> verdict() {
        return Optional.ofNullable(verdict);
    }

    private double seconds(long nanos) {
        return (nanos - origin) / 1e9;
    }

    /** Points {@code (x, y)} in x order with their running sums, for a least-squares slope over a sliding window. */
    private static final class Series {
        private final ArrayDeque<double[]> points = new ArrayDeque<>();
        private double sx;
        private double sy;
        private double sxx;
        private double sxy;
        private double syy;

        void add(double x, double y) {
            points.addLast(new double[] {x, y});
            sums(x, y, 1);
        }

        void dropBefore(double x) {
            while (!points.isEmpty() && points.peekFirst()[0] < x) {
                double[] p = points.removeFirst();
                sums(p[0], p[1], -1);
            }
        }

        private void sums(double x, double y, int sign) {
            sx += sign * x;
            sy += sign * y;
            sxx += sign * x * x;
            sxy += sign * x * y;
            syy += sign * y * y;
        }

        /** {@code {slope}} when it rises by the rule, else empty. */
        Optional<double[]> rising() {
            int n = points.size();
            if (n < MIN_POINTS) {
                return Optional.empty();
            }
            double cxx = sxx - sx * sx / n;
            double cxy = sxy - sx * sy / n;
            double cyy = syy - sy * sy / n;
            if (!(cxx > 0)) {
                return Optional.empty();
            }
            double slope = cxy / cxx;
            double residual = Math.max(0, cyy - cxy * cxy / cxx);
            double se = Math.sqrt(residual / (n - 2) / cxx);
            double low = slope - Statistics.studentTQuantile(0.975, n - 2) * se;
            double span = points.peekLast()[0] - points.peekFirst()[0];
            double mean = sy / n;
            return low > 0 && slope * span >= MIN_RISE * mean ? Optional.of(new double[] {slope}) : Optional.empty();
        }
    }
}
