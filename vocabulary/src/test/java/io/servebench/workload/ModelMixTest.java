package io.servebench.workload;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ModelMixTest {

    private static Map<String, Double> shares(ModelMix mix, long seed, int draws) {
        Map<String, Double> counts = new LinkedHashMap<>();
        mix.names().forEach(n -> counts.put(n, 0.0));
        for (int i = 0; i < draws; i++) {
            counts.merge(mix.draw(seed, i), 1.0, Double::sum);
        }
        counts.replaceAll((k, v) -> v / draws);
        return counts;
    }

    /** 20,000 draws: each share within 0.015 of its weight (about 4 standard errors). */
    @Test
    void drawsMatchTheirWeightsUniformAndZipf() {
        Map<String, Double> weighted = shares(ModelMix.parse("sql:3,chat:1", null), 42, 20_000);
        assertThat(weighted.get("sql")).isCloseTo(0.75, within(0.015));
        assertThat(weighted.get("chat")).isCloseTo(0.25, within(0.015));
        Map<String, Double> uniform = shares(ModelMix.parse("a,b,c,d", "uniform"), 42, 20_000);
        uniform.values().forEach(v -> assertThat(v).isCloseTo(0.25, within(0.015)));
        // zipf, exponent 1 over 3 names: 1, 1/2, 1/3 of 11/6
        Map<String, Double> zipf = shares(ModelMix.parse("a,b,c", "zipf"), 42, 20_000);
        assertThat(zipf.get("a")).isCloseTo(6 / 11.0, within(0.015));
        assertThat(zipf.get("b")).isCloseTo(3 / 11.0, within(0.015));
        assertThat(zipf.get("c")).isCloseTo(2 / 11.0, within(0.015));
        Map<String, Double> steep = shares(ModelMix.parse("a,b", "zipf:2"), 42, 20_000);
        assertThat(steep.get("a")).isCloseTo(0.8, within(0.015));
    }

    @Test
    void aSeedRepeatsItsDrawsAndAnotherDrawsAnew() {
        ModelMix mix = ModelMix.parse("a,b", "uniform");
        int same = 0;
        for (int i = 0; i < 1000; i++) {
            assertThat(mix.draw(7, i)).isEqualTo(mix.draw(7, i));
            same += mix.draw(7, i).equals(mix.draw(8, i)) ? 1 : 0;
        }
        assertThat(same).isBetween(400, 600);
    }

    @Test
    void badListsAreNamed() {
        assertThatThrownBy(() -> ModelMix.parse("a:x", null)).hasMessageContaining("\"a:x\" is not a name with an optional "
                + "weight; expected e.g. \"sql-lora:3,chat-lora:1\"");
        assertThatThrownBy(() -> ModelMix.parse("a,a", null)).hasMessage("models = \"a,a\" names a twice");
        assertThatThrownBy(() -> ModelMix.parse("a:0", null)).hasMessageContaining("the weights sum to 0");
        assertThatThrownBy(() -> ModelMix.parse("a,b", "pareto")).hasMessage("modelDistribution = \"pareto\": expected "
                + "weights, uniform or zipf (zipf:S for an exponent other than 1)");
    }
}
