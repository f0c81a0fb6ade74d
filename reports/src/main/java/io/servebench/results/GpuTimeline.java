package io.servebench.results;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A repetition's GPUs over its measurement window in equal steps, beside the rate its requests were sent at: what a
 * report draws for a trial. A step in which no GPU was read has {@code null} power and utilisation.
 *
 * @param stepSeconds each step's length, s
 * @param watts       the GPUs' power in each step, all of them together, W
 * @param utilization their mean utilisation in each step, % ({@code null} where the source does not report it)
 * @param requestRate measured requests whose intended send fell in each step, per second
 */
public record GpuTimeline(double stepSeconds, List<Double> watts, List<Double> utilization, List<Double> requestRate) {

    public GpuTimeline {
        if (!(stepSeconds > 0)) {
            throw new IllegalArgumentException("a timeline's step lasts a positive time, got " + stepSeconds + " s");
        }
        watts = copy(watts);
        utilization = copy(utilization);
        requestRate = copy(requestRate);
        if (utilization.size() != watts.size() || requestRate.size() != watts.size()) {
            throw new IllegalArgumentException("a timeline's series have one value per step, got " + watts.size() + ", "
                    + utilization.size() + " and " + requestRate.size());
        }
    }

    /** The number of steps. */
    public int steps() {
        return watts.size();
    }

    // nulls are steps without a reading, which List.copyOf refuses
    private static List<Double> copy(List<Double> values) {
        return Collections.unmodifiableList(new ArrayList<>(values));
    }
}
