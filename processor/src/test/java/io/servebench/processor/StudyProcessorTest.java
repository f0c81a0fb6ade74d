package io.servebench.processor;

import io.servebench.study.BenchmarkList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import javax.tools.Diagnostic;

import static io.servebench.processor.InMemoryCompiler.BASELINE;
import static io.servebench.processor.InMemoryCompiler.assertOneError;
import static io.servebench.processor.InMemoryCompiler.compile;
import static io.servebench.processor.InMemoryCompiler.lineOf;
import static io.servebench.processor.InMemoryCompiler.study;
import static org.assertj.core.api.Assertions.assertThat;

class StudyProcessorTest {




    @Test
    void unknownProfileIsReportedOnTheProfileValueNamingTheKnownOnes() {
        String source = study("""
                @Workload(
                    dataset = "synthetic-sharegpt",
                    profile = "burst")""", BASELINE);
        assertOneError(source, "unknown profile \"burst\"; expected one of constant, poisson, concurrent", "\"burst\"");
    }

    @Test
    void aDatasetSpecOfTheWrongFormIsReportedOnItsValue() {
        String source = study("""
                @Workload(
                    dataset = "synthetic:in=fixed(512)")""", BASELINE);
        assertOneError(source, "dataset \"synthetic:in=fixed(512)\": no out=DIST", "\"synthetic:in=fixed(512)\"");
    }

    @Test
    void aValueJavacCannotResolveIsJavacsErrorAloneAndTheProcessorReadsItAsLeftOut() {
        // the reader sees javac's error placeholder where the constant should be: read as left out, never a crash of
        // the processor, which javac would print as "an annotation processor threw an uncaught exception"
        String source = study("@Workload(rate = NO_SUCH_RATE, requests = 10)", """
                    @Baseline @Variant(group = NO_SUCH_GROUP, flags = {"--max-num-seqs=8", NO_SUCH_FLAG})
                    public void baseline() {}
                """);
        InMemoryCompiler.Result result = compile(source);
        assertThat(result.success()).isFalse();
        assertThat(result.errorMessages()).as(result.log()).isNotEmpty()
                .allSatisfy(m -> assertThat(m).startsWith("cannot find symbol"));
        assertThat(result.log()).doesNotContain("threw");
    }

    @Test
    void theTraceProfileNeedsATraceDatasetOnTheSameWorkload() {
        String source = study("""
                @Workload(
                    dataset = "synthetic-sharegpt",
                    profile = "trace")""", BASELINE);
        assertOneError(source, "profile trace replays a trace's arrival times, but the dataset is synthetic-sharegpt",
                "\"synthetic-sharegpt\"");
        assertThat(compile(study("@Workload(dataset = \"trace:t.jsonl,timeScale=0.5\", profile = \"trace\")", BASELINE))
                .errorMessages()).isEmpty();
    }

    @Test
    void unknownEngineKindOnTheClass() {
        String source = study("@Engine(\"tgi\")", BASELINE);
        assertOneError(source, "unknown engine kind \"tgi\"; expected one of vllm, sglang, command, endpoint, sim", "\"tgi\"");
    }

    @Test
    void unknownEngineKindOnAVariant() {
        String source = study("", BASELINE + """
                    @Variant(group = "g",
                             engine = "trtllm")
                    public void other() {}
                """);
        assertOneError(source, "unknown engine kind \"trtllm\"", "\"trtllm\"");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "rate = 0           | rate = 0 is out of range; expected a positive, finite number of requests per second (for every request at once, profile throughput)",
            "rate = -0.5        | rate = -0.5 is out of range",
            "requests = 0       | requests = 0 is out of range; expected a positive number of measured requests",
            "concurrency = 0    | concurrency = 0 is out of range; expected a positive number of in-flight requests",
            "warmup = -2        | warmup = -2 is out of range; expected zero or a positive number of warm-up requests",
    })
    void outOfRangeWorkloadSettingsOnAVariant(String setting, String message) {
        String source = study("", BASELINE + """
                    @Variant
                    @Workload(dataset = "synthetic-sharegpt",
                              %s)
                    public void other() {}
                """.formatted(setting));
        assertOneError(source, message, setting);
    }

    @Test
    void anExplicitMinusOneIsReportedThoughItMeansUnsetWhenLeftOut() {
        String source = study("""
                @Workload(
                    warmup = -1)""", BASELINE);
        assertOneError(source, "warmup = -1 is out of range", "warmup = -1");
        assertThat(compile(source).errorMessages().get(0)).contains("leave it out to inherit it");
    }

    @Test
    void sloBoundsMustBePositive() {
        String source = study("@Slo(ttftMs = 200,\n      tpotMs = 0)", BASELINE);
        assertOneError(source, "@Slo SLO tpotMs = 0.0 ms is out of range; expected a positive, finite number of milliseconds",
                "tpotMs = 0");
        assertThat(compile(study("@Slo(ttftMs = 200, tpotMs = 50)", "    @Baseline @Variant @Slo(e2eMs = 1500) public void baseline() {}\n"))
                .errorMessages()).isEmpty();
    }

    @Test
    void aMinimumAttainmentMustBeAShare() {
        String source = study("@Slo(ttftMs = 200,\n      minAttainment = 1.5)", BASELINE);
        assertOneError(source, "@Slo minAttainment = 1.5 is out of range; expected a share of requests in (0, 1], e.g. 0.99",
                "minAttainment = 1.5");
        assertThat(compile(study("@Slo(ttftMs = 200, minAttainment = 0.99)", BASELINE)).errorMessages()).isEmpty();
    }

    @Test
    void serverOptionsOutOfRangeAreReportedOnTheValue() {
        String source = study("@ServerOptions(maxModelLen = 32768,\n      gpuMemoryFraction = 1.5)", BASELINE);
        assertOneError(source, "@ServerOptions gpuMemoryFraction = 1.5 is out of range; expected a share of GPU memory in (0, 1]",
                "gpuMemoryFraction = 1.5");
    }

    @Test
    void aMalformedSpeculativeOptionIsReportedOnTheVariant() {
        String source = study("", "    @Baseline @Variant\n    @ServerOptions(speculative = \"mtp-1\")\n    public void baseline() {}\n");
        assertOneError(source, "speculative = \"mtp-1\" has no ':'", "speculative = \"mtp-1\"");
        assertThat(compile(study("@ServerOptions(maxModelLen = 4096, prefixCaching = ServerOptions.Toggle.OFF)",
                "    @Baseline @Variant @ServerOptions(speculative = \"eagle:3\", draftModel = \"d/eagle\")"
                        + " public void baseline() {}\n")).errorMessages()).isEmpty();
        // the simulated engine's model config alone: no engine flag, nothing to refuse
        assertThat(compile(study("@ServerOptions(simulatedModelConfig = \"configs/llama-70b/config.json\")", BASELINE))
                .errorMessages()).isEmpty();
        String noDraft = study("", "    @Baseline @Variant\n    @ServerOptions(speculative = \"eagle:3\")\n    public void baseline() {}\n");
        assertOneError(noDraft, "speculative = \"eagle:3\" drafts with a model of its own", "speculative = \"eagle:3\"");
    }

    @Test
    void sloOnAMethodWithoutVariantIsReported() {
        String source = study("", BASELINE + "    @Slo(ttftMs = 5)\n    public void helper() {}\n");
        assertOneError(source, "@Slo on helper, which is neither a study class nor a @Variant method", "@Slo(ttftMs = 5)");
    }

    @Test
    void aTuningStudyWithAnUnknownMetricIsReportedOnTheMetric() {
        String source = study("""
                @Workload(rate = 8)
                @Tune(validationRates = {1, 16},
                      metric = "p99")""", BASELINE);
        assertOneError(source, "@Tune(metric = \"p99\"): expected one of e2e_latency, ttft, tpot, itl", "metric = \"p99\"");
    }

    @Test
    void aTuningStudyNeedsOneRateABaselineAndItsEngineGroup() {
        assertOneError(study("@Tune(maxRepetitions = 3)", BASELINE), "tunes at one workload point: expected @Workload(rate ="
                + " R) on the class, or @Workload(concurrency = C) for closed-loop streams", "@Tune(maxRepetitions = 3)");
        // at a concurrency: no validation rates, reported on its value; a capacity there is in streams (since stop 70)
        assertOneError(study("@Workload(profile = \"concurrent\", concurrency = 64)\n@Tune(validationRates = {1, 4})",
                BASELINE), "@Tune(validationRates = [1.0, 4.0]): Demo tunes at concurrency 64, and validation rates are"
                + " request rates", "validationRates = {1, 4}");
        assertThat(compile(study("@Workload(profile = \"concurrent\", concurrency = 64)\n@Tune(metric = \"capacity\")",
                BASELINE)).errorMessages()).isEmpty();
        assertThat(compile(study("@Workload(profile = \"concurrent\", concurrency = 64)\n@Tune(metric = \"output_throughput\","
                + " validationConcurrencies = {16, 128})", BASELINE)).errorMessages()).isEmpty();
        // at a rate, concurrencies to validate at are numbers of streams it never ran
        assertOneError(study("@Workload(rate = 8)\n@Tune(validationConcurrencies = {16})", BASELINE),
                "@Tune(validationConcurrencies = [16]): Demo tunes at a request rate, and these are numbers of closed-loop"
                + " streams", "validationConcurrencies = {16}");
        assertOneError(study("@Workload(rate = 8)\n@Tune", "    @Variant public void only() {}\n"), "has no @Baseline variant", "@Tune");
        assertOneError(study("@Workload(rate = 8)\n@Tune(engineGroup = \"engines\")", BASELINE),
                "@Tune(engineGroup = \"engines\"): no variant is in that group", "engineGroup = \"engines\"");
        assertOneError(study("@Workload(rate = 8)\n@Tune(maxRepetitions = 0)", BASELINE),
                "@Tune(maxRepetitions = 0): expected at least 1", "@Tune(maxRepetitions = 0)");
        assertThat(compile(study("@Workload(rate = 8)\n@Tune(validationRates = {1, 4, 16})", BASELINE
                + "    @Variant(group = \"engine-selection\", engine = \"sglang\") public void sglang() {}\n")).errorMessages())
                .isEmpty();
    }

    @Test
    void warmupOfZeroIsFine() {
        assertThat(compile(study("@Workload(warmup = 0, rate = 0.5)", BASELINE)).errorMessages()).isEmpty();
    }

    @Test
    void emptyFlagIsReportedOnItsArrayElement() {
        String source = study("""
                @Engine(value = "vllm", flags = {
                    "--max-model-len=32768",
                    ""})""", BASELINE);
        assertOneError(source, "empty flag; expected \"--name\"", "\"\"})");
    }

    @Test
    void malformedFlagOfAVariantIsReportedOnItsArrayElement() {
        String source = study("", BASELINE + """
                    @Variant(flags = {
                        "--enable-prefix-caching",
                        "max-num-seqs=4"})
                    public void other() {}
                """);
        assertOneError(source, "malformed flag \"max-num-seqs=4\": expected it to start with '-'", "\"max-num-seqs=4\"");
    }

    /** A key in a study's flags would show on the console and in every report: the processor refuses it there. */
    @Test
    void aKeyWrittenIntoAFlagIsRefusedOnItsArrayElement() {
        String source = study("""
                @Engine(value = "vllm", flags = {
                    "--max-model-len=32768",
                    "--api-key=sk-live-123"})""", BASELINE);
        assertOneError(source, "flag --api-key gives a secret, which a study's flags would show on the console and in"
                + " every report; expected none: put it in an environment variable and name that with --api-key-env NAME:"
                + " ServeBench then starts vllm and sglang with --api-key and sends it with every request",
                "\"--api-key=sk-live-123\"})");
        assertThat(compile(source).errorMessages()).noneMatch(m -> m.contains("sk-live"));
        String admin = study("", BASELINE + """
                    @Variant(flags = {"--admin-api-key=adm-1"})
                    public void other() {}
                """);
        assertOneError(admin, "expected none: set it in the environment variable SERVEBENCH_ADMIN_API_KEY, from which"
                + " ServeBench starts sglang with --admin-api-key", "\"--admin-api-key=adm-1\"");
        // a switch holds no secret: vLLM's --hf-token alone uses the token the machine logged in with
        assertThat(compile(study("@Engine(value = \"vllm\", flags = \"--hf-token\")", BASELINE)).errorMessages())
                .isEmpty();
    }

    @Test
    void aFlagGivenTwiceWithDifferentValuesInOneList() {
        String source = study("""
                @Engine(value = "vllm", flags = {
                    "--max-num-seqs=128",
                    "--max_num_seqs 256"})""", BASELINE);
        assertOneError(source, "flag --max-num-seqs is given twice with different values (\"128\" and \"256\")",
                "\"--max_num_seqs 256\"");
    }

    @Test
    void aFlagGivenTwiceWithOneValueAndAVariantReplacingAClassFlagAreFine() {
        String source = study("@Engine(value = \"vllm\", flags = {\"--max-num-seqs=128\", \"--max-num-seqs=128\"})",
                BASELINE + "    @Variant(flags = \"--max-num-seqs=256\") public void more() {}\n");
        assertThat(compile(source).errorMessages()).isEmpty();
    }

    @Test
    void aPlaceholderNamingNoParamField() {
        String source = study("", """
                    @Param({"128"}) int maxNumSeqs;
                    @Baseline
                    @Variant(flags = {"--max-num-seqs=${maxNumSeq}"})
                    public void seqs() {}
                """);
        assertOneError(source, "names ${maxNumSeq} but the study has no @Param field \"maxNumSeq\"; expected one of [maxNumSeqs]",
                "${maxNumSeq}");
    }

    @Test
    void twoVariantsWithOneName() {
        String source = study("", BASELINE + """
                    @Variant public void other() {}
                    @Variant(group = "overload")
                    public void other(int overload) {}
                """);
        InMemoryCompiler.Result result = compile(source);
        // the overload with a parameter also has the wrong shape, reported on the same annotation
        assertThat(result.errorMessages()).as(result.log()).containsExactlyInAnyOrder(
                "variant name \"other\" is used by more than one @Variant method (overloads); expected one method per name",
                "variant method other has 1 parameter(s); expected none");
        assertThat(result.errors()).extracting(Diagnostic::getLineNumber)
                .containsOnly(lineOf(source, "@Variant(group = \"overload\")"));
    }

    @Test
    void moreThanOneBaseline() {
        String source = study("", BASELINE + """
                    @Variant
                    @Baseline // the second
                    public void other() {}
                """);
        assertOneError(source, "more than one @Baseline: baseline is already the baseline; expected at most one", "// the second");
    }

    @Test
    void moreThanOneRecommended() {
        String source = study("", BASELINE + """
                    @Recommended @Variant(flags = "--a=1")
                    public void one() {}
                    @Variant(flags = "--a=2")
                    @Recommended // the second
                    public void two() {}
                """);
        assertOneError(source, "more than one @Recommended: one is already the recommended variant", "// the second");
    }

    @Test
    void recommendedWithoutVariant() {
        String source = study("", BASELINE + """
                    @Recommended // alone
                    public void notAVariant() {}
                """);
        assertOneError(source, "@Recommended on notAVariant(), which has no @Variant; expected @Recommended together with @Variant",
                "// alone");
    }

    @Test
    void paramWithoutValues() {
        String source = study("", BASELINE + """
                    @Param({})
                    int maxNumSeqs;
                """);
        assertOneError(source, "@Param field maxNumSeqs has no values; expected at least one", "@Param({})");
    }

    @Test
    void paramValueThatDoesNotConvertNamesTheValueAndTheType() {
        String source = study("", BASELINE + """
                    @Param({"128",
                            "many"})
                    int maxNumSeqs;
                """);
        assertOneError(source, "@Param value \"many\" of field maxNumSeqs does not convert to int", "\"many\"");
    }

    @Test
    void workloadParamValueOutOfRange() {
        String source = study("", BASELINE + """
                    @Param({"1",
                            "0"})
                    double rate;
                """);
        assertOneError(source, "@Param value \"0\" of field rate is out of range; expected a positive, finite number", "\"0\"");
    }

    @Test
    void paramOfUnsupportedType() {
        String source = study("", BASELINE + """
                    @Param("1")
                    float ratio;
                """);
        assertOneError(source, "@Param field ratio has unsupported type float; expected int, long, double, boolean or String",
                "@Param(\"1\")");
    }

    @Test
    void variantOutsideAStudyClass() {
        String source = """
                package demo;
                import io.servebench.annotations.*;
                public class NotAStudy {
                    @Variant
                    public void lonely() {}
                }
                """;
        assertOneError(source, "variant outside a study class: NotAStudy has no @ServingBenchmark", "@Variant");
    }

    @Test
    void baselineWithoutVariant() {
        String source = study("", BASELINE + """
                    @Baseline // alone
                    public void notAVariant() {}
                """);
        assertOneError(source, "@Baseline on notAVariant(), which has no @Variant", "// alone");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "void other()                 | variant method other() is not public; expected a public method",
            "public static void other()   | variant method other() is static; expected an instance method",
            "public int other()           | variant method other() returns int; expected void",
            "public void other(int n)     | variant method other has 1 parameter(s); expected none",
    })
    void variantMethodOfTheWrongShape(String signature, String message) {
        String body = "int".equals(signature.split(" ")[1]) ? "{ return 0; }" : "{}";
        String source = study("", BASELINE + """
                    @Variant(group = "g")
                    %s %s
                """.formatted(signature, body));
        assertOneError(source, message, "@Variant(group = \"g\")");
    }

    @Test
    void studyClassThatIsNotPublic() {
        String source = study("", BASELINE).replace("public class Demo", "class Demo");
        assertOneError(source, "study class Demo is not public", "@ServingBenchmark");
    }

    @Test
    void studyClassThatIsAbstract() {
        String source = study("", BASELINE).replace("public class Demo", "public abstract class Demo");
        assertOneError(source, "study class Demo is abstract; expected a concrete class", "@ServingBenchmark");
    }

    @Test
    void everyProblemOfAClassIsReported() {
        String source = study("""
                @Engine("tgi")
                @Workload(profile = "burst")""", """
                    @Baseline
                    @Variant(flags = "nodash")
                    public void baseline() {}
                """);
        InMemoryCompiler.Result result = compile(source);
        assertThat(result.errors()).as(result.log()).extracting(Diagnostic::getLineNumber).containsExactlyInAnyOrder(
                lineOf(source, "\"tgi\""), lineOf(source, "\"burst\""), lineOf(source, "\"nodash\""));
    }

    @Test
    void aGoodStudyCompilesAndIsListed() {
        String source = """
                package demo;

                import io.servebench.annotations.*;

                @ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "tuning")
                @Engine(value = "vllm", flags = {"--reasoning-parser=qwen3", "--max-model-len=32768"})
                @Workload(dataset = "synthetic-sharegpt", profile = Profile.CONSTANT, rate = 8, requests = 1000)
                public class Good {
                    @Param({"1", "4", "8", "16"}) double rate;
                    @Param({"128", "256"}) int maxNumSeqs;

                    @Baseline @Variant public void baseline() {}
                    @Variant(group = "max-num-seqs", flags = "--max-num-seqs=${maxNumSeqs}") public void maxNumSeqs() {}
                    @Variant(engine = "sglang", flags = "--context-length=32768") public void sglang() {}
                    @Variant @Workload(profile = Profile.CONCURRENT, concurrency = 4) public void closedLoop() {}

                    public static class Nested {
                    }
                }
                """;
        String other = """
                package demo.more;
                @io.servebench.annotations.ServingBenchmark(model = "m")
                public class Another {
                    @io.servebench.annotations.Variant public void only() {}
                }
                """;
        InMemoryCompiler.Result result = compile(source, other);
        assertThat(result.diagnostics()).as(result.log())
                .noneMatch(d -> d.getKind() == Diagnostic.Kind.ERROR || d.getKind() == Diagnostic.Kind.WARNING);
        assertThat(result.success()).isTrue();
        assertThat(result.output(BenchmarkList.RESOURCE)).isEqualTo("""
                demo.Good.baseline
                demo.Good.closedLoop
                demo.Good.maxNumSeqs
                demo.Good.sglang
                demo.more.Another.only
                """);
        assertThat(result.notes()).anySatisfy(note -> assertThat(note).contains("5 benchmark(s) in 2 study class(es)"));
    }

    @Test
    void aNestedStudyIsListedByItsBinaryName() {
        String source = """
                package demo;
                import io.servebench.annotations.*;
                public class Outer {
                    @ServingBenchmark(model = "m")
                    public static class Inner {
                        @Variant public void only() {}
                    }
                }
                """;
        InMemoryCompiler.Result result = compile(source);
        assertThat(result.errorMessages()).isEmpty();
        assertThat(result.output(BenchmarkList.RESOURCE)).isEqualTo("demo.Outer$Inner.only\n");
    }

    @Test
    void classesWithoutStudiesWriteNoList() {
        InMemoryCompiler.Result result = compile("package demo; public class Plain {}");
        assertThat(result.success()).isTrue();
        assertThat(result.outputs()).doesNotContainKey(BenchmarkList.RESOURCE);
    }

    @Test
    void aStudyWithoutVariantsIsReported() {
        String source = study("", "    public void notAVariant() {}\n");
        assertOneError(source, "study has no @Variant methods; expected at least one", "@ServingBenchmark");
    }
}
