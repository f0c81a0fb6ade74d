package io.servebench.load;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpreadTest {

    @Test
    void roundRobinTakesTurnsAndWeightsInterleave() {
        assertThat(IntStream.range(0, 7).map(Spread.roundRobin(3)::replica).boxed().toList())
                .containsExactly(0, 1, 2, 0, 1, 2, 0);
        // nginx's smooth weighted round robin of 3 and 1: a, a, b, a, then again
        assertThat(IntStream.range(0, 8).map(new Spread(List.of(3, 1))::replica).boxed().toList())
                .containsExactly(0, 0, 1, 0, 0, 0, 1, 0);
        // 5, 1, 1 (nginx's own example): a, a, b, a, c, a, a
        assertThat(IntStream.range(0, 7).map(new Spread(List.of(5, 1, 1))::replica).boxed().toList())
                .containsExactly(0, 0, 1, 0, 2, 0, 0);
    }

    @Test
    void weightsAreWholeAndPositive() {
        assertThatThrownBy(() -> new Spread(List.of(1, 0))).hasMessageContaining("weights >= 1");
        assertThatThrownBy(() -> new Spread(List.of())).hasMessageContaining("at least one replica");
    }
}
