package io.servebench.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MainOverridesTest {

    @Test
    void extraBodyKeepsItsCommasWhileOtherSettingsSplitOnThem() {
        var overrides = Main.parseOverrides(List.of("extraBody={\"temperature\":0,\"top_p\":1}", "rate=1,4"));
        assertThat(overrides.get("extraBody")).containsExactly("{\"temperature\":0,\"top_p\":1}");
        assertThat(overrides.get("rate")).containsExactly("1", "4");
    }

    @Test
    void aNonPositiveTimeoutIsACommandLineError() {
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"--request-timeout", "0", "--dry-run"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err, true));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--request-timeout 0.0: expected a positive number of seconds");
    }

    @Test
    void aSimulatedGpuNeedsTheSimulatedEngineAndAKnownId() {
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"--simulate-gpu", "h200", "--dry-run"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err, true));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--simulate-gpu h200 needs --simulate");

        StringWriter err2 = new StringWriter();
        int code2 = Main.execute(new String[] {"--simulate", "--simulate-gpu", "h900", "--dry-run"},
                new PrintWriter(new StringWriter()), new PrintWriter(err2, true));
        assertThat(code2).isEqualTo(2);
        assertThat(err2.toString()).contains("unknown GPU \"h900\"; expected one of h100, h100-pcie, h200, h20, a100, l40s, b200");
    }
}
