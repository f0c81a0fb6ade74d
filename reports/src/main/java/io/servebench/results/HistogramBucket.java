package io.servebench.results;

/**
 * One bucket of a latency histogram.
 *
 * @param value the bucket's value, in the unit of the {@link Distribution} that holds it (the highest
 *              value the bucket stands for at the histogram's 3 significant digits)
 * @param count how many samples fell in the bucket ({@code ≥ 1})
 */
public record HistogramBucket(double value, long count) {

    public HistogramBucket {
        if (count < 1) {
            throw new IllegalArgumentException("histogram bucket count must be >= 1, got " + count + " at value " + value);
        }
    }
}
