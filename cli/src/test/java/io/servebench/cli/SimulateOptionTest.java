package io.servebench.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --simulate} takes the word after it as its mode only when it names one. */
class SimulateOptionTest {

    private static Main parse(String... args) {
        Main main = new Main();
        new CommandLine(main).parseArgs(args);
        return main;
    }

    @Test
    void aStudyAfterSimulateIsTheStudyNotTheMode() {
        Main m = parse("--simulate", "QuickStart");
        assertThat(m.simulate).isEqualTo("in-process");
        assertThat(m.includes).containsExactly("QuickStart");
    }

    @Test
    void aModeAfterSimulateIsTheModeWrittenEitherWay() {
        assertThat(parse("--simulate", "virtual", "QuickStart").simulate).isEqualTo("virtual");
        assertThat(parse("--simulate=process", "QuickStart").simulate).isEqualTo("process");
        assertThat(parse("QuickStart", "--simulate").simulate).isEqualTo("in-process");
        assertThat(parse("QuickStart").simulate).isNull();
    }

    @Test
    void aWrongModeWrittenWithEqualsIsStillRefused() {
        int code = Main.execute(new String[] {"--simulate=virtaul", "QuickStart"},
                new java.io.PrintWriter(new java.io.StringWriter()), new java.io.PrintWriter(new java.io.StringWriter()));
        assertThat(code).isEqualTo(2);
    }
}
