package io.servebench.study;

import io.servebench.flags.Flag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StudiesTest {

    private static StudyDescriptor study(String engine, List<String> flags, List<ParamSpec> params, VariantDescriptor... variants) {
        return new StudyDescriptor("demo.Study", "m", "", engine, flags, WorkloadOptions.UNSET, params, List.of(variants));
    }

    private static VariantDescriptor variant(String engine, String... flags) {
        return new VariantDescriptor("v", "", List.of(flags), engine, false, WorkloadOptions.UNSET);
    }

    @Test
    void variantFlagsReplaceClassFlagsOfTheSameNameInPlaceAndOthersAreAppended() {
        VariantDescriptor v = variant("", "--max_num_seqs 256", "--enable-prefix-caching");
        StudyDescriptor s = study("vllm", List.of("--reasoning-parser=qwen3", "--max-num-seqs=128", "--max-model-len=32768"), List.of(), v);

        assertThat(Studies.effectiveFlags(s, v)).containsExactly(
                new Flag("--reasoning-parser", "qwen3"), new Flag("--max-num-seqs", "256"),
                new Flag("--max-model-len", "32768"), new Flag("--enable-prefix-caching", null));
    }

    @Test
    void aFlagGivenTwiceWithOneValueCountsOnce() {
        VariantDescriptor v = variant("", "--a=1");
        StudyDescriptor s = study("vllm", List.of("--a=1", "--a 1"), List.of(), v);
        assertThat(Studies.effectiveFlags(s, v)).containsExactly(new Flag("--a", "1"));
    }

    @Test
    void aVariantOnAnotherEngineDoesNotInheritTheClassFlags() {
        VariantDescriptor other = variant("sglang", "--context-length=32768");
        VariantDescriptor same = variant("vllm", "--enable-prefix-caching");
        StudyDescriptor s = study("vllm", List.of("--max-model-len=32768"), List.of(), other, same);

        assertThat(Studies.effectiveEngine(s, other)).isEqualTo("sglang");
        assertThat(Studies.effectiveFlags(s, other)).containsExactly(new Flag("--context-length", "32768"));
        // naming the class's own engine is no switch: the flags are inherited
        assertThat(Studies.effectiveEngine(s, same)).isEqualTo("vllm");
        assertThat(Studies.effectiveFlags(s, same)).containsExactly(
                new Flag("--max-model-len", "32768"), new Flag("--enable-prefix-caching", null));
    }

    @Test
    void aMalformedFlagIsRefusedNamingIt() {
        VariantDescriptor v = variant("", "oops");
        assertThatThrownBy(() -> Studies.effectiveFlags(study("vllm", List.of(), List.of(), v), v))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("demo.Study").hasMessageContaining("\"oops\"");
    }

    @Test
    void substitutesEveryPlaceholderLiterally() {
        assertThat(Studies.substitute("--speculative-config={\"n\":${n}} ${n}${m}", Map.of("n", "2", "m", "$1\\x")))
                .isEqualTo("--speculative-config={\"n\":2} 2$1\\x");
        assertThat(Studies.substitute("--plain=$1 {}", Map.of())).isEqualTo("--plain=$1 {}");
        assertThatThrownBy(() -> Studies.substitute("--a=${missing}", Map.of("n", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("${missing}").hasMessageContaining("[n]");
    }

    @Test
    void placeholdersAreListedInOrder() {
        assertThat(Studies.placeholders("--x=${b}:${a}:${b}")).containsExactly("b", "a", "b");
        assertThat(Studies.placeholders("--x=$b")).isEmpty();
    }

    @Test
    void aVariantUsesTheWorkloadParamsAndTheParamsItsEffectiveFlagsName() {
        List<ParamSpec> params = List.of(
                new ParamSpec("rate", "double", List.of("1", "8")),
                new ParamSpec("maxNumSeqs", "int", List.of("128")),
                new ParamSpec("blockSize", "int", List.of("16")),
                new ParamSpec("requests", "int", List.of("100")));
        VariantDescriptor inherits = variant("", "--block-size=${blockSize}");
        VariantDescriptor replaces = variant("", "--max-num-seqs=64");
        VariantDescriptor switches = variant("sglang");
        StudyDescriptor s = study("vllm", List.of("--max-num-seqs=${maxNumSeqs}"), params, inherits, replaces, switches);

        assertThat(Studies.paramsUsedBy(s, inherits)).extracting(ParamSpec::name)
                .containsExactly("rate", "maxNumSeqs", "blockSize", "requests");
        assertThat(Studies.paramsUsedBy(s, replaces)).extracting(ParamSpec::name).containsExactly("rate", "requests");
        assertThat(Studies.paramsUsedBy(s, switches)).extracting(ParamSpec::name).containsExactly("rate", "requests");
    }

    @Test
    void workloadSettingsResolveLevelByLevel() {
        WorkloadOptions onClass = new WorkloadOptions("sharegpt:a.json", null, 8.0, null, 1000, null);
        VariantDescriptor v = new VariantDescriptor("v", "", List.of(), "", false,
                new WorkloadOptions(null, "poisson", 4.0, null, null, 0));
        StudyDescriptor s = new StudyDescriptor("demo.Study", "m", "", "sim", List.of(), onClass, List.of(), List.of(v));

        WorkloadOptions effective = Studies.effectiveWorkload(s, v);
        assertThat(effective).isEqualTo(new WorkloadOptions("sharegpt:a.json", "poisson", 4.0, null, 1000, 0));
        assertThat(WorkloadOptions.DEFAULTS.overriddenBy(effective).with("rate", "16"))
                .isEqualTo(new WorkloadOptions("sharegpt:a.json", "poisson", 16.0, 1, 1000, 0));
    }

    @Test
    void aWorkloadSettingFromTextMustBeANumberOfItsType() {
        assertThat(WorkloadOptions.UNSET.with("concurrency", "4").concurrency()).isEqualTo(4);
        assertThatThrownBy(() -> WorkloadOptions.UNSET.with("requests", "1.5"))
                .hasMessage("workload setting requests = \"1.5\" is not a whole number");
        assertThat(WorkloadOptions.UNSET.with("dataset", "x").dataset()).isEqualTo("x");
        assertThatThrownBy(() -> WorkloadOptions.UNSET.with("datasets", "x"))
                .hasMessageContaining("\"datasets\" is not a workload setting");
    }
}
