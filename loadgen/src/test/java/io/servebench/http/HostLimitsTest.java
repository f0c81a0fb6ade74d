package io.servebench.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HostLimitsTest {

    @Test
    void theTighterOfFilesAndPortsBindsAndTheWarningNamesBoth() {
        HostLimits fewFiles = new HostLimits(1024, 24, 32768, 60999);

        assertThat(fewFiles.connectionsLeft(1)).isEqualTo(1000);
        assertThat(fewFiles.connectionsLeft(2)).isEqualTo(500);
        assertThat(fewFiles.warning(500, 2)).isEmpty();
        assertThat(fewFiles.warning(501, 2)).hasValue("501 connections may be needed but open files 24 of 1,024"
                + " (ulimit -n), local ports 32768-60999 (28,232); raise the limit (ulimit -n, sysctl"
                + " net.ipv4.ip_local_port_range) or the load will queue behind it");

        HostLimits fewPorts = new HostLimits(1_000_000, 0, 60000, 60999);
        assertThat(fewPorts.connectionsLeft(2)).isEqualTo(1000);
        assertThat(fewPorts.warning(1001, 1)).isPresent();
    }

    @Test
    void unknownLimitsNeverWarn() {
        HostLimits unknown = new HostLimits(-1, -1, -1, -1);

        assertThat(unknown.connectionsLeft(2)).isEqualTo(Integer.MAX_VALUE);
        assertThat(unknown.warning(1_000_000, 2)).isEmpty();
        assertThat(unknown).hasToString("open files unknown, local ports unknown");
    }

    @Test
    void thisHostsLimitsAreRead() {
        HostLimits here = HostLimits.current();

        // Linux CI machines and this one: both limits are known and leave room for a test's connections
        assertThat(here.maxFiles()).isGreaterThan(here.openFiles()).isPositive();
        assertThat(here.ports()).isPositive();
    }
}
