package io.servebench.cli;

import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;
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
        // a setting's words wrap onto lines indented past the keys; read as one line each
        String unwrapped = settings.replaceAll("\\R {28}", " ");
        for (WorkloadSetting setting : WorkloadSetting.values()) {
            assertThat(unwrapped).as(setting.key()).containsPattern("(?m)^  " + setting.key() + " +\\S")
                    .contains(setting.meaning());
        }
        assertThat(unwrapped).contains("a positive, finite number of requests per second",
                "one of constant, poisson", "default synthetic-sharegpt");
        for (LoadOption option : LoadOption.values()) {
            assertThat(unwrapped).as(option.key()).containsPattern("(?m)^  " + option.key() + " +\\S")
                    .contains(option.meaning() + ": " + option.expected());
        }
        assertThat(unwrapped).contains("a JSON object such as {\"temperature\": 0} (one value, commas included)");
        assertThat(unwrapped.lines().filter(l -> l.startsWith("  ") && !l.startsWith("   ")).count())
                .as("one line per setting").isEqualTo(WorkloadSetting.values().length + LoadOption.values().length);
        assertThat(settings.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(120));
    }
}
