package io.servebench.cli;

import io.servebench.workload.LoadOption;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** The help lists every workload setting {@code -p} takes, with what it does and the values it takes. */
class MainHelpTest {

    @Test
    void theHelpListsEveryWorkloadSettingBeforeTheExamples() {
        StringWriter out = new StringWriter();
        assertThat(Main.execute(new String[] {"-h"}, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true)))
                .isZero();
        String help = out.toString();
        String settings = help.substring(help.indexOf("\nWorkload settings ("), help.indexOf("\nExamples:"));
        assertThat(settings).contains("dataset, profile, rate, concurrency, requests, warmup");
        for (LoadOption option : LoadOption.values()) {
            assertThat(settings).as(option.key()).containsPattern("(?m)^  " + option.key() + " +\\S")
                    .contains(option.meaning()).contains(option.expected());
        }
        assertThat(settings.lines().filter(l -> l.startsWith("  ") && !l.startsWith("   ")).count())
                .as("one line per setting, and one for the six basic ones").isEqualTo(LoadOption.values().length + 1);
    }
}
