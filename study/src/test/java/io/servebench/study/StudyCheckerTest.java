package io.servebench.study;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The checker on descriptors as the runtime reads them; the processor tests cover the same checks through javac. */
class StudyCheckerTest {

    private static final VariantDescriptor BASELINE = new VariantDescriptor("baseline", "", List.of(), "", true, WorkloadOptions.UNSET);

    private static StudyDescriptor study(List<ParamSpec> params, WorkloadOptions workload, VariantDescriptor... variants) {
        // the simulated engine's kind: its flags are not checked against an engine version's list (made-up flags below)
        return new StudyDescriptor("demo.Study", "m", "", "sim", List.of("--max-model-len=32768"), workload, params,
                List.of(variants));
    }

    @Test
    void knowsTheProfileConstants() {
        assertThat(StudyChecker.PROFILES).containsExactlyInAnyOrder("constant", "poisson", "concurrent", "synchronous",
                "gamma", "throughput", "sweep", "trace");
    }

    @Test
    void aStudyWithUnsetSettingsHasNoProblem() {
        assertThat(StudyChecker.check(study(List.of(), WorkloadOptions.UNSET, BASELINE))).isEmpty();
    }

    @Test
    void reportsEveryProblemWithItsLocation() {
        VariantDescriptor bad = new VariantDescriptor("bad", "g", List.of("--a=1", "--a=2", "--b=${nope}"), "", true,
                new WorkloadOptions(null, "burst", null, 0, null, null));
        List<Problem> problems = StudyChecker.check(study(List.of(), new WorkloadOptions(null, null, Double.NaN, null, null, null),
                BASELINE, bad));

        assertThat(problems).extracting(Problem::where).containsExactly(
                new Location(Location.Kind.CLASS, "Study", -1, "Workload", "rate", -1),
                new Location(Location.Kind.METHOD, "bad", 1, "Variant", "flags", 1),
                new Location(Location.Kind.METHOD, "bad", 1, "Variant", "flags", 2),
                new Location(Location.Kind.METHOD, "bad", 1, "Workload", "profile", -1),
                new Location(Location.Kind.METHOD, "bad", 1, "Workload", "concurrency", -1),
                new Location(Location.Kind.METHOD, "bad", 1, "Baseline", null, -1));
        assertThat(problems.get(0).message()).isEqualTo("rate = NaN is out of range; expected a positive, finite number of requests per second (for every request at once, profile throughput)");
        assertThat(problems.get(2).message()).contains("names ${nope} but the study has no @Param field \"nope\"; expected a @Param field of that name");
        assertThat(problems.get(1).where()).hasToString("method bad() @Variant(flags[1])");
    }

    @Test
    void atMostOneRecommendedVariantAndNotTheBaseline() {
        VariantDescriptor first = new VariantDescriptor("first", "", List.of("--a=1"), "", false, WorkloadOptions.UNSET, true);
        VariantDescriptor second = new VariantDescriptor("second", "", List.of("--a=2"), "", false, WorkloadOptions.UNSET, true);
        VariantDescriptor both = new VariantDescriptor("both", "", List.of(), "", true, WorkloadOptions.UNSET, true);

        assertThat(StudyChecker.check(study(List.of(), WorkloadOptions.UNSET, BASELINE, first))).isEmpty();
        List<Problem> twice = StudyChecker.check(study(List.of(), WorkloadOptions.UNSET, BASELINE, first, second));
        assertThat(twice).extracting(Problem::where)
                .containsExactly(new Location(Location.Kind.METHOD, "second", 2, "Recommended", null, -1));
        assertThat(twice.get(0).message()).isEqualTo("more than one @Recommended: first is already the recommended variant;"
                + " expected at most one @Recommended per study");
        assertThat(StudyChecker.check(study(List.of(), WorkloadOptions.UNSET, both))).extracting(Problem::message)
                .containsExactly("variant both is both @Baseline and @Recommended; expected the recommendation to be another"
                        + " variant, compared with the baseline");
    }

    @Test
    void paramValuesMustConvertToTheFieldType() {
        List<ParamSpec> params = List.of(
                new ParamSpec("flagOn", "boolean", List.of("TRUE", "yes")),
                new ParamSpec("big", "long", List.of("9223372036854775807", "9223372036854775808")),
                new ParamSpec("text", "String", List.of("", "anything")),
                new ParamSpec("ratio", "double", List.of("0.5", "1e3", "half")));
        List<Problem> problems = StudyChecker.check(study(params, WorkloadOptions.UNSET, BASELINE));

        assertThat(problems).extracting(Problem::message).containsExactly(
                "@Param value \"yes\" of field flagOn does not convert to boolean; expected true or false",
                "@Param value \"9223372036854775808\" of field big does not convert to long; expected a whole number from "
                        + Long.MIN_VALUE + " to " + Long.MAX_VALUE,
                "@Param value \"half\" of field ratio does not convert to double; expected a decimal number such as 0.5");
        assertThat(problems).extracting(p -> p.where().valueIndex()).containsExactly(1, 1, 2);
    }

    @Test
    void workloadParamsMustHaveANumericTypeAndValuesInRange() {
        List<ParamSpec> params = List.of(
                new ParamSpec("rate", "String", List.of("1")),
                new ParamSpec("requests", "double", List.of("10")),
                new ParamSpec("warmup", "int", List.of("0", "-1")),
                new ParamSpec("concurrency", "long", List.of("0")));
        assertThat(StudyChecker.check(study(params, WorkloadOptions.UNSET, BASELINE))).extracting(Problem::message).containsExactly(
                "workload @Param field rate has type String; expected double, int or long",
                "workload @Param field requests has type double; expected int or long",
                "@Param value \"-1\" of field warmup is out of range; expected zero or a positive number of warm-up requests",
                "@Param value \"0\" of field concurrency is out of range; expected a positive number of in-flight requests");
    }

    @Test
    void classLevelProblems() {
        StudyDescriptor s = new StudyDescriptor("demo.Study", " ", "", "tgi", List.of("--x", ""), WorkloadOptions.UNSET,
                List.of(), List.of());
        assertThat(StudyChecker.check(s)).extracting(p -> p.where().annotation() + "." + p.where().attribute()).containsExactly(
                "ServingBenchmark.model", "Engine.value", "Engine.flags", "ServingBenchmark.null");
    }

    @Test
    void requireValidListsEveryProblem() {
        StudyDescriptor s = study(List.of(), new WorkloadOptions(null, "burst", 0.0, null, null, null), BASELINE);
        assertThat(StudyChecker.requireValid(study(List.of(), WorkloadOptions.UNSET, BASELINE))).isNotNull();
        assertThatThrownBy(() -> StudyChecker.requireValid(s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("study demo.Study has 2 problem(s):")
                .hasMessageContaining("class Study @Workload(profile): unknown profile \"burst\"")
                .hasMessageContaining("class Study @Workload(rate): rate = 0 is out of range");
    }

    @Test
    void sloServerOptionsAndTuneAreCheckedOnTheDescriptorWhereTheyAreWritten() {
        // (a class written so would not compile: the processor reports the same problems on its values)
        VariantDescriptor baseline = new VariantDescriptor("baseline", "", List.of(), "", true, WorkloadOptions.UNSET, false,
                SloOptions.UNSET, new io.servebench.engine.kind.ServerSettingsOptions(null, null, 1.5, null, null, "mtp", null));
        StudyDescriptor study = new StudyDescriptor("demo.Study", "m", "", "vllm", List.of(), WorkloadOptions.UNSET, List.of(),
                List.of(baseline), io.servebench.engine.kind.EngineSetup.NONE, new SloOptions(0.0, null, null, null, 2.0),
                io.servebench.engine.kind.ServerSettingsOptions.NONE,
                java.util.Optional.of(new TuneOptions("engines", "p99", List.of(), 3, 1.02)));
        List<Problem> problems = StudyChecker.check(study);

        assertThat(problems).extracting(p -> p.where().toString()).containsExactly(
                "class Study @Slo(ttftMs)",
                "class Study @Slo(minAttainment)",
                "method baseline() @ServerOptions(gpuMemoryFraction)",
                "method baseline() @ServerOptions(speculative)",
                "class Study @Tune(metric)",
                "class Study @Tune",
                "class Study @Tune(engineGroup)");
        assertThat(problems.get(0).message()).startsWith("@Slo SLO ttftMs = 0.0 ms is out of range");
        assertThat(problems.get(5).message()).contains("tunes at one workload point: expected @Workload(rate = R) on the"
                + " class, or @Workload(concurrency = C)");
    }

    @Test
    void aVariantsSloLiesOverTheClassesBoundByBound() {
        SloOptions onClass = new SloOptions(200.0, 50.0, null, null, 0.9);
        VariantDescriptor strict = new VariantDescriptor("strict", "", List.of(), "", true, WorkloadOptions.UNSET, false,
                new SloOptions(100.0, null, null, null, null), io.servebench.engine.kind.ServerSettingsOptions.NONE);
        StudyDescriptor study = new StudyDescriptor("demo.Study", "m", "", "vllm", List.of(), WorkloadOptions.UNSET, List.of(),
                List.of(strict), io.servebench.engine.kind.EngineSetup.NONE, onClass, io.servebench.engine.kind.ServerSettingsOptions.NONE,
                java.util.Optional.empty());

        assertThat(study.slo("strict")).hasToString("ttft=100,tpot=50");
        assertThat(study.minAttainment("strict")).hasValue(0.9);
        // a variant the study does not declare (a tuner's combination) has the class's
        assertThat(study.slo("combined")).hasToString("ttft=200,tpot=50");
    }
}
