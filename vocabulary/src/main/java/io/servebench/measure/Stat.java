package io.servebench.measure;

/** A statistic of a distribution of a metric (the result model's {@code Distribution}), with the word reports put before the metric's label. */
public enum Stat {
    MEAN("mean", "Mean"),
    STDEV("stdev", "Stdev"),
    MIN("min", "Min"),
    MEDIAN("p50", "Median"),
    P90("p90", "P90"),
    P95("p95", "P95"),
    P99("p99", "P99"),
    P999("p99.9", "P99.9"),
    MAX("max", "Max");

    private final String id;
    private final String label;

    Stat(String id, String label) {
        this.id = id;
        this.label = label;
    }

    /** Stable id, used in secondary metric names such as {@code ttft.p99}. */
    public String id() {
        return id;
    }

    /** Word shown before the metric label, as in "Median TTFT (ms)". */
    public String label() {
        return label;
    }
}
