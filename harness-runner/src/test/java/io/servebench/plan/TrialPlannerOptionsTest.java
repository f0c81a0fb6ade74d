package io.servebench.plan;

import io.servebench.results.BlockResult;
import io.servebench.workload.LoadOption;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantDescriptor;
import io.servebench.study.WorkloadOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The load options through {@code @Workload} levels and {@code -p} overrides into workload points. */
class TrialPlannerOptionsTest {

    private static StudyDescriptor study(WorkloadOptions classLevel, WorkloadOptions methodLevel) {
        return new StudyDescriptor("x.S", "m", "", "vllm", List.of(), classLevel, List.of(),
                List.of(new VariantDescriptor("baseline", "", List.of(), "", true, WorkloadOptions.UNSET),
                        new VariantDescriptor("other", "", List.of("--x"), "", false, methodLevel)));
    }

    private static WorkloadOptions spec(String profile, Map<String, String> options) {
        return new WorkloadOptions("synthetic-sharegpt", profile, 8.0, null, 100, null, options);
    }

    private static TrialPlan plan(Map<String, List<String>> overrides, StudyDescriptor study) {
        return new TrialPlanner(overrides).plan(List.of(new TrialPlanner.Selection(study, study.variants())));
    }

    @Test
    void methodOptionsOverrideClassOptionsOneByOne() {
        StudyDescriptor s = study(spec("gamma", Map.of("burstiness", "0.5", "maxConcurrency", "16")),
                new WorkloadOptions(null, null, null, null, null, null, Map.of("maxConcurrency", "4")));
        TrialPlan plan = plan(Map.of(), s);
        LoadOptionParams base = plan.blocks().get(0).trial().workload().options();
        LoadOptionParams other = plan.blocks().get(1).trial().workload().options();
        assertThat(base.burstiness()).isEqualTo(0.5);
        assertThat(base.maxConcurrency()).isEqualTo(16);
        assertThat(other.burstiness()).isEqualTo(0.5);
        assertThat(other.maxConcurrency()).isEqualTo(4);
    }

    @Test
    void minusPSetsEveryNewSettingAndExpandsOverItsValues() {
        StudyDescriptor s = study(spec("constant", Map.of()), WorkloadOptions.UNSET);
        TrialPlan plan = plan(Map.of("profile", List.of("gamma"), "burstiness", List.of("0.5", "2"),
                "rampUpSeconds", List.of("10"), "maxConcurrency", List.of("8"), "durationSeconds", List.of("60"),
                "maxErrors", List.of("3"), "warmupSeconds", List.of("5"), "api", List.of("completions"),
                "extraBody", List.of("{\"temperature\":0,\"seed\":1}"), "continuousUsage", List.of("false")), s);
        // 2 variants x 2 burstiness values
        assertThat(plan.trials()).hasSize(4);
        LoadOptionParams o = plan.trials().get(0).workload().options();
        assertThat(List.<Object>of(o.warmupSeconds(), o.burstiness(), o.rampUpSeconds(), o.maxConcurrency(),
                o.durationSeconds(), o.maxErrors(), o.sweepRates(), o.api(), o.extraBody(), o.continuousUsage()))
                .containsExactly(5.0, 0.5, 10.0, 8, 60.0, 3, 0, "completions", "{\"temperature\":0,\"seed\":1}", false);
        // the options left out keep their defaults
        assertThat(List.<Object>of(o.saturationWindowSeconds(), o.cancellationRate(), o.cancellationDelaySeconds(),
                o.cancellationAfter(), o.timeoutSeconds(), o.modelDistribution())).containsExactly(0.0, 0.0, 0.0, "send", 0.0,
                "weights");
        assertThat(o.models()).isNull();
        assertThat(o.endpointWeights()).isNull();
        assertThat(plan.trials().get(1).workload().options().burstiness()).isEqualTo(2);
        assertThat(plan.trials().get(0).workload().label()).contains("burstiness=0.5").contains("maxConcurrency=8");
    }

    @Test
    void badOverrideValuesAreRefusedNamingThem() {
        assertThatThrownBy(() -> new TrialPlanner(Map.of("burstiness", List.of("0"))))
                .hasMessageContaining("-p burstiness=0").hasMessageContaining("burstiness = 0 is out of range");
        assertThatThrownBy(() -> new TrialPlanner(Map.of("extraBody", List.of("{\"stream\":false}"))))
                .hasMessageContaining("which the client controls");
        assertThatThrownBy(() -> new TrialPlanner(Map.of("api", List.of("responses"))))
                .hasMessageContaining("expected chat or completions");
        assertThatThrownBy(() -> plan(Map.of("profile", List.of("sweep")), study(spec("constant", Map.of()), WorkloadOptions.UNSET)))
                .hasMessageContaining("profile sweep needs sweepRates");
        assertThatThrownBy(() -> plan(Map.of("burstiness", List.of("2")), study(spec("constant", Map.of()), WorkloadOptions.UNSET)))
                .hasMessageContaining("burstiness applies only to profile gamma, but the profile is constant");
    }

    @Test
    void aSweepIgnoresTheRateSoRatesOfOneSweepAreOneTrialOfSweepRatesPlusTwoBlocks() {
        StudyDescriptor s = study(spec("sweep", Map.of("sweepRates", "3")), WorkloadOptions.UNSET);
        TrialPlan plan = plan(Map.of("rate", List.of("1", "8")), s);
        // one block a variant: a block for each rate was the same sweep reported twice (before stop 77)
        assertThat(plan.blocks()).hasSize(2);
        assertThat(plan.trials()).hasSize(2);
        assertThat(plan.trials()).allSatisfy(t -> {
            assertThat(t.workload().resultBlocks()).isEqualTo(5);
            assertThat(t.id()).endsWith("-sweep3");
            assertThat(t.workload().label()).startsWith("sweep: synchronous, throughput, then 3 constant rates between");
        });
    }

    @Test
    void trialsOfOneServerAndLoadThatDifferOtherwiseHaveKeysOfTheirOwn() {
        StudyDescriptor s = study(spec("constant", Map.of()), WorkloadOptions.UNSET);
        // a trial's key was its server and its load alone: two datasets at one rate gave two trials one key, and the
        // JUnit engine, which names a test by it, showed one of them
        TrialPlan two = plan(Map.of("dataset", List.of("synthetic:in=8,out=8", "synthetic-sharegpt"),
                "requests", List.of("10", "20")), s);
        assertThat(two.trials()).hasSize(8);
        assertThat(two.trials().stream().map(Trial::key).distinct()).hasSize(8);
        assertThat(two.trials()).allSatisfy(t -> assertThat(t.key()).matches("vllm-[0-9a-f]{8}-constant-8-[0-9a-f]{8}"));
        // where the load tells them apart, the key stays what it was
        assertThat(plan(Map.of("rate", List.of("4", "8")), s).trials()).extracting(Trial::key)
                .allSatisfy(key -> assertThat(key).matches("vllm-[0-9a-f]{8}-constant-[48]"));
        // the same plan asked for again gives the same keys
        assertThat(plan(Map.of("dataset", List.of("synthetic:in=8,out=8", "synthetic-sharegpt"),
                "requests", List.of("10", "20")), s).trials()).extracting(Trial::key)
                .isEqualTo(two.trials().stream().map(Trial::key).toList());
    }

    /** Annotation values written as {@code values} says, nothing else. */
    private record Written(Map<String, Object> values) implements io.servebench.study.AnnotationValues {
        @Override
        public java.util.Optional<Object> given(String attribute) {
            return java.util.Optional.ofNullable(values.get(attribute));
        }

        @Override
        public Object value(String attribute) {
            return values.get(attribute);
        }
    }

    /**
     * A study whose {@code @Workload} sets every load option, each to a value of its own, as the reader sees a class: no
     * class can be so written, the processor refuses options of several profiles together.
     */
    private static io.servebench.study.StudyClass<io.servebench.study.StudyMember> everyOption() {
        Map<String, Object> set = Map.of("warmupSeconds", 1.0, "burstiness", 2.0, "rampUpSeconds", 3.0, "maxConcurrency", 4,
                "durationSeconds", 5.0, "maxErrors", 6, "sweepRates", 7, "api", "completions", "extraBody", "{\"top_k\": 8}",
                "continuousUsage", "true");
        return new io.servebench.study.StudyClass<>() {
            @Override
            public String binaryName() {
                return "EveryOption";
            }

            @Override
            public java.util.Optional<io.servebench.study.AnnotationValues> annotation(String simpleName) {
                return switch (simpleName) {
                    case "ServingBenchmark" -> java.util.Optional.of(new Written(Map.of("model", "m", "description", "")));
                    case "Workload" -> java.util.Optional.of(new Written(set));
                    default -> java.util.Optional.empty();
                };
            }

            @Override
            public List<io.servebench.study.StudyMember> fields() {
                return List.of();
            }

            @Override
            public List<io.servebench.study.StudyMember> methods() {
                return List.of();
            }

            @Override
            public java.util.Optional<io.servebench.study.StudyClass<io.servebench.study.StudyMember>> superclass() {
                return java.util.Optional.empty();
            }
        };
    }

    @Test
    void eachOptionIsKeptUnderItsAnnotationAttributesName() {
        // each option's key, spelt once in the vocabulary (LoadOption), must name its own @Workload attribute
        assertThat(io.servebench.study.StudyReader.read(everyOption()).workload().options())
                .containsExactly(Map.entry("warmupSeconds", "1"), Map.entry("burstiness", "2"),
                        Map.entry("rampUpSeconds", "3"), Map.entry("maxConcurrency", "4"), Map.entry("durationSeconds", "5"),
                        Map.entry("maxErrors", "6"), Map.entry("sweepRates", "7"), Map.entry("api", "completions"),
                        Map.entry("extraBody", "{\"top_k\": 8}"), Map.entry("continuousUsage", "true"));
    }
}
