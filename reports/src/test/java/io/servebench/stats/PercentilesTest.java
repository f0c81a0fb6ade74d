package io.servebench.stats;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** ServeBench's one percentile estimator against numpy's {@code np.percentile} itself, the anchor it follows. */
class PercentilesTest {

    @Test
    void numpysOwnDocumentedExample() {
        // numpy.percentile's documentation: a = np.array([[10, 7, 4], [3, 2, 1]]); np.percentile(a, 50) -> 3.5
        assertThat(Percentiles.of(new double[] {1, 2, 3, 4, 7, 10}, new long[] {1, 1, 1, 1, 1, 1}, 50)).isEqualTo(3.5);
    }

    @Test
    void aLongTailedSampleGivesNumpysFigures() throws Exception {
        // percentiles/latencies-ms.txt: 1,000 latencies with a heavy tail and a few stragglers; numpy 2.4.6 gave
        // np.percentile(np.loadtxt(f), [50, 90, 95, 99, 99.9]) =
        double[] numpy = {223.89350000000002, 350.0858, 432.4965499999999, 1200.0031099999999, 1538.5580310000287};
        double[] p = {50, 90, 95, 99, 99.9};
        double[] sorted = Files.readAllLines(Path.of(PercentilesTest.class.getResource("/percentiles/latencies-ms.txt")
                .toURI())).stream().mapToDouble(Double::parseDouble).sorted().toArray();
        // as values with counts: repeated values share a count, as a histogram's buckets do
        double[] values = Arrays.stream(sorted).distinct().toArray();
        long[] counts = Arrays.stream(values).mapToLong(v -> Arrays.stream(sorted).filter(x -> x == v).count()).toArray();
        for (int i = 0; i < p.length; i++) {
            assertThat(Percentiles.of(values, counts, p[i])).as("p" + p[i]).isCloseTo(numpy[i], within(1e-9 * numpy[i]));
        }
        assertThat(Percentiles.of(values, counts, 0)).isEqualTo(200.005);
        assertThat(Percentiles.of(values, counts, 100)).isEqualTo(1856.271);
    }
}
