package io.servebench.loadcheck;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a check works out before and after its load, without running one. */
class LoadCheckTest {

    private static LoadCheck check(double rate, int tokens, int serverLoops, int truthProcesses) {
        return new LoadCheck(rate, 0, tokens, Duration.ofSeconds(15), Duration.ofSeconds(5), Duration.ofMillis(20),
                Duration.ofMillis(10), serverLoops, truthProcesses, 4);
    }

    @Test
    void eventsThatNeedMoreCoresThanTheMachineHasAreNamedWithTheCoresTheyNeed() {
        // the device's 10,000 req/s x 100 tokens: 1,000,000 events/s x (10.8 + 8.1) us = 18.9 core-seconds per second
        assertThat(check(10_000, 100, 6, 2).cpuShortfall(10.8, 8.1, 16)).hasValueSatisfying(w -> assertThat(w)
                .contains("1,000,000 events/s", "need 18.9 cores", "this machine has 16"));
        // 5,000 req/s: 9.45 cores, within the 70% of 16 (11.2) a check may take
        assertThat(check(5_000, 100, 6, 2).cpuShortfall(10.8, 8.1, 16)).isEmpty();
        // a CPU figure that could not be measured warns of nothing
        assertThat(check(10_000, 100, 6, 2).cpuShortfall(Double.NaN, 8.1, 16)).isEmpty();
    }

    @Test
    void moreProcessesThanCoresAreRefusedBeforeAnyStarts() {
        // --split 99 on 2 cores started JVM after JVM for minutes, silent, and took minutes more to stop
        assertThatThrownBy(() -> check(100, 10, 6, 99).requireCores(2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--split 99: more processes than this machine's 2 cores, which could only take turns;"
                        + " expected at most 2");
        assertThatThrownBy(() -> check(100, 10, 6, 1).requireCores(2))
                .hasMessageStartingWith("--load-workers 4: more processes than this machine's 2 cores");
        check(100, 10, 6, 4).requireCores(16);
    }

    @Test
    void theServerLoopsAreSharedOutAmongTheTruthProcessesAndTheLoadGoesRoundRobin() {
        assertThat(check(100, 10, 6, 0).loopsPerProcess()).isEqualTo(6);
        assertThat(check(100, 10, 6, 1).loopsPerProcess()).isEqualTo(6);
        assertThat(check(100, 10, 6, 4).loopsPerProcess()).isEqualTo(2);
        assertThat(check(100, 10, 1, 3).loopsPerProcess()).isEqualTo(1);
        assertThat(check(100, 10, 6, 3).spread().replicas()).isEqualTo(3);
        assertThat(check(100, 10, 6, 3).spread().replica(4)).isEqualTo(1);
        assertThat(check(100, 10, 6, 0).spread().replicas()).isEqualTo(1);
    }
}
