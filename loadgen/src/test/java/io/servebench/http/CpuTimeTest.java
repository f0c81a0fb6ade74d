package io.servebench.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CpuTimeTest {

    @Test
    void aTickCountedUserPartNeverExceedsTheExactTotal() {
        // 48 ms of user ticks against 45.3 ms measured exactly, as a 1 s loadcheck on CI once read
        CpuTime span = new CpuTime(145_300_000, 120_000_000).minus(new CpuTime(100_000_000, 72_000_000));

        assertThat(span.totalNs()).isEqualTo(45_300_000);
        assertThat(span.userNs()).isEqualTo(45_300_000);
        assertThat(span.kernelNs()).isZero();
    }

    @Test
    void aConsistentSplitIsKeptAsItIs() {
        CpuTime cpu = new CpuTime(30, 10).plus(new CpuTime(20, 5));

        assertThat(cpu.userNs()).isEqualTo(15);
        assertThat(cpu.kernelNs()).isEqualTo(35);
    }
}
