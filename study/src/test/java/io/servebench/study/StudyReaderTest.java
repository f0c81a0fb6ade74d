package io.servebench.study;

import io.servebench.annotations.Workload;
import io.servebench.workload.WorkloadSetting;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StudyReaderTest {

    @Test
    void readsEverySettingInDeclarationOrder() {
        StudyDescriptor study = StudyReader.read(SampleStudy.class);

        assertThat(study).isEqualTo(new StudyDescriptor(
                "io.servebench.study.SampleStudy", "Qwen/Qwen3.5-9B", "sample", "vllm",
                List.of("--reasoning-parser=qwen3", "--max-model-len=32768"),
                new WorkloadOptions("synthetic-sharegpt", null, 8.0, null, 1000, null),
                List.of(new ParamSpec("rate", "double", List.of("1", "4")),
                        new ParamSpec("maxNumSeqs", "int", List.of("256", "128")),
                        new ParamSpec("unused", "boolean", List.of("true"))),
                List.of(new VariantDescriptor("zBaseline", "", List.of(), "", true, WorkloadOptions.UNSET),
                        new VariantDescriptor("maxNumSeqs", "max-num-seqs", List.of("--max-num-seqs=${maxNumSeqs}"), "", false,
                                new WorkloadOptions(null, "poisson", null, null, null, 10), true),
                        new VariantDescriptor("aSglang", "", List.of("--context-length=32768"), "sglang", false,
                                WorkloadOptions.UNSET))));
        assertThat(StudyChecker.check(study)).isEmpty();
    }

    @Test
    void aClassWithoutEngineRunsOnTheSimulatedEngine() {
        StudyDescriptor study = StudyReader.read(Minimal.class);
        assertThat(study.engineKind()).isEqualTo("sim");
        assertThat(study.engineFlags()).isEmpty();
        assertThat(study.workload()).isEqualTo(WorkloadOptions.UNSET);
        assertThat(study.className()).isEqualTo("io.servebench.study.StudyReaderTest$Minimal");
        assertThat(study.simpleName()).isEqualTo("StudyReaderTest.Minimal");
    }

    @Test
    void aClassThatIsNotAStudyIsRefusedByName() {
        assertThatThrownBy(() -> StudyReader.read(String.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("class java.lang.String is not a study: expected it to be annotated @io.servebench.annotations.ServingBenchmark");
    }

    @Test
    void eachWorkloadSettingIsReadFromTheAttributeOfItsName() throws ReflectiveOperationException {
        // the oracle is the annotation itself: each key must name a @Workload attribute, whose value the reader keeps
        Workload written = AllSix.class.getAnnotation(Workload.class);
        WorkloadOptions expected = WorkloadOptions.UNSET;
        for (WorkloadSetting setting : WorkloadSetting.values()) {
            expected = expected.with(setting.key(), String.valueOf(Workload.class.getMethod(setting.key()).invoke(written)));
        }
        assertThat(StudyReader.read(AllSix.class).workload()).isEqualTo(expected)
                .isEqualTo(new WorkloadOptions("synthetic:in=8,out=8", "poisson", 3.0, 5, 20, 2));
    }

    @io.servebench.annotations.ServingBenchmark(model = "m")
    @Workload(dataset = "synthetic:in=8,out=8", profile = "poisson", rate = 3, concurrency = 5, requests = 20, warmup = 2)
    public static class AllSix {
        @io.servebench.annotations.Variant
        public void only() {
        }
    }

    @io.servebench.annotations.ServingBenchmark(model = "m")
    public static class Minimal {
        @io.servebench.annotations.Variant
        public void only() {
        }
    }
}
