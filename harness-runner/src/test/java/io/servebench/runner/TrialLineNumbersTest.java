package io.servebench.runner;

import io.servebench.engine.EngineParams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each trial's line is numbered {@code [k/n]}: the k-th measurement of the n known so far. A tuner measures a trial again
 * when a call is close; that measurement is numbered on, not given the number after the last new trial again (every
 * one of them read {@code [3/3]} before).
 */
class TrialLineNumbersTest {

    private static final Pattern NUMBER = Pattern.compile("^\\[(\\d+)/(\\d+)] (t\\d+)\\S*?(-r\\d+)?: ");

    @Test
    void aTunersMeasurementsOfATrialAgainAreNumberedOn(@TempDir Path dir) throws Exception {
        StringWriter text = new StringWriter();
        new Runner(RunOptions.builder().include(SimTuning.class).simulate(EngineParams.Simulate.VIRTUAL)
                .settle(Duration.ZERO).outputDir(dir).build(), new PrintWriter(text, true)).run();
        List<Matcher> lines = text.toString().lines().map(NUMBER::matcher).filter(Matcher::find).toList();
        assertThat(lines).as(text.toString()).hasSizeGreaterThan(2)
                .anySatisfy(m -> assertThat(m.group(4)).as("a trial measured again").isNotNull());
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = lines.get(i);
            assertThat(Integer.parseInt(m.group(1))).as("line %d of%n%s", i, text).isEqualTo(i + 1);
            assertThat(Integer.parseInt(m.group(2))).as("line %d of%n%s", i, text).isGreaterThanOrEqualTo(i + 1);
        }
        Matcher last = lines.get(lines.size() - 1);
        assertThat(last.group(2)).isEqualTo(Integer.toString(lines.size()));
    }
}
