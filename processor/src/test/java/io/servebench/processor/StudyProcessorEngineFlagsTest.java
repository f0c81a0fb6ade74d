package io.servebench.processor;

import org.junit.jupiter.api.Test;

import static io.servebench.processor.InMemoryCompiler.BASELINE;
import static io.servebench.processor.InMemoryCompiler.assertOneError;
import static io.servebench.processor.InMemoryCompiler.compile;
import static io.servebench.processor.InMemoryCompiler.study;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Engine flags checked at compile time against the engine version's own argument parser (the flag lists of
 * {@code vocabulary/src/main/resources/io/servebench/flags}, read from vLLM's {@code arg_utils.py} and SGLang's
 * {@code server_args.py} at the commits they name), each problem reported on the flag that has it.
 */
class StudyProcessorEngineFlagsTest {

    @Test
    void aMisspeltFlagIsAnErrorOnItWithTheNearestSpelling() {
        String source = study("""
                @Engine(value = "vllm", flags = {"--max-model-len=32768",
                        "--max-num-seqz=128"})""", BASELINE);
        assertOneError(source, "flag --max-num-seqz is not a flag of vLLM 0.26.0; did you mean --max-num-seqs?",
                "\"--max-num-seqz=128\"");
    }

    @Test
    void aCommandLinePastedIntoOneFlagIsAnErrorOnItSplitAsTheEngineWouldReadIt() {
        String source = study("@Engine(value = \"vllm\", flags = \"--served-model-name qwen --max-num-seqs 64\")",
                BASELINE);
        assertOneError(source, "holds more than one flag (--served-model-name, --max-num-seqs); write each as a string of"
                + " its own: \"--served-model-name qwen\", \"--max-num-seqs 64\"",
                "\"--served-model-name qwen --max-num-seqs 64\"");
    }

    @Test
    void aFlagServeBenchWritesItselfIsAnErrorOnIt() {
        // KindStarts writes --host and --port after the serve command, and the engine's argparse keeps the last of each
        assertOneError(study("@Engine(value = \"vllm\", flags = {\"--max-num-seqs=64\", \"--port=9000\"})", BASELINE),
                "flag --port is one ServeBench sets itself: it starts vLLM on a free port of its choosing", "\"--port=9000\"");
        assertOneError(study("@Engine(value = \"sim\", flags = \"--host=0.0.0.0\")", BASELINE),
                "flag --host is one ServeBench sets itself", "\"--host=0.0.0.0\"");
        // SGLang's serve command names the model with --model-path, which --model stands for (server_args.py's alias)
        assertOneError(study("@Engine(value = \"sglang\", flags = \"--model=Qwen/Qwen3-8B\")", BASELINE),
                "flag --model-path names the model, which ServeBench writes itself from @ServingBenchmark(model)",
                "\"--model=Qwen/Qwen3-8B\"");
        // a variant on another engine is checked against that engine's command line
        assertOneError(study("@Engine(value = \"vllm\")", BASELINE + """
                    @Variant(group = "sglang", engine = "sglang", flags = "--port=30000")
                    public void onSglang() {}
                """), "flag --port is one ServeBench sets itself: it starts SGLang", "\"--port=30000\"");
    }

    @Test
    void oneSettingWrittenTwiceUnderTwoSpellingsIsAnError() {
        // -tp is an alias of --tensor-parallel-size (vLLM's arg_utils.py), and argparse keeps the last one given
        assertOneError(study("@Engine(value = \"vllm\", flags = {\"--tensor-parallel-size=2\", \"-tp=4\"})", BASELINE),
                "flag --tensor-parallel-size is given twice with different values (as --tensor-parallel-size=2 and"
                        + " -tp=4); expected it once", "\"-tp=4\"");
        // a BooleanOptionalAction's --no-NAME turns NAME off
        assertOneError(study("""
                @Engine(value = "vllm", flags = {"--enable-prefix-caching",
                        "--no-enable-prefix-caching"})""", BASELINE),
                "flag --enable-prefix-caching is given twice with different values (as --enable-prefix-caching and"
                        + " --no-enable-prefix-caching)", "\"--no-enable-prefix-caching\"");
        // the same setting twice alike is no contradiction
        assertThat(compile(study("@Engine(value = \"sglang\", flags = {\"--tp-size=2\", \"--tensor-parallel-size=2\"})",
                BASELINE)).errorMessages()).isEmpty();
    }

    @Test
    void aSecretWrittenInTheEnvironmentIsAnErrorAndItsNameAloneHandsItOn() {
        assertOneError(study("@Engine(value = \"vllm\", env = {\"CUDA_VISIBLE_DEVICES=0\", \"HF_TOKEN=hf_abc\"})",
                BASELINE), "environment entry HF_TOKEN holds a secret, which a study never writes; expected \"HF_TOKEN\""
                + " alone, which hands the engine the HF_TOKEN of the environment ServeBench runs in", "\"HF_TOKEN=hf_abc\"");
        assertThat(compile(study("@Engine(value = \"vllm\", env = {\"CUDA_VISIBLE_DEVICES=0\", \"HF_TOKEN\"})",
                BASELINE)).errorMessages()).isEmpty();
        assertOneError(study("@Engine(value = \"vllm\", env = \"9LIVES=1\")", BASELINE),
                "malformed environment entry \"9LIVES=1\"", "\"9LIVES=1\"");
    }

    @Test
    void anAbbreviationIsAnErrorThoughTheEnginesParserWouldTakeIt() {
        String source = study("@Engine(value = \"vllm\", flags = \"--max-num-seq=128\")", BASELINE);
        assertOneError(source, "write its whole name, --max-num-seqs", "\"--max-num-seq=128\"");
    }

    @Test
    void aFlagOfAnotherVersionIsAnErrorNamingTheVersionThatHasIt() {
        String source = study("""
                @Engine(value = "vllm", version = "0.26.0",
                        flags = "--swap-space=4")""", BASELINE);
        assertOneError(source, "flag --swap-space is not a flag of vLLM 0.26.0 (vLLM 0.17.1 has it;",
                "\"--swap-space=4\"");
        assertThat(compile(study("@Engine(value = \"vllm\", version = \"0.17.1\", flags = \"--swap-space=4\")", BASELINE))
                .errorMessages()).isEmpty();
    }

    @Test
    void aVariantsFlagsAreCheckedAgainstTheEngineItRunsOn() {
        String source = study("@Engine(value = \"vllm\", version = \"0.17.1\")", BASELINE + """
                    @Variant(group = "sglang", engine = "sglang", engineVersion = "0.5.9",
                             flags = {"--context-length=32768",
                                      "--max-num-seqs=64"})
                    public void onSglang() {}
                """);
        assertOneError(source, "flag --max-num-seqs is not a flag of SGLang 0.5.9", "\"--max-num-seqs=64\"");
    }

    @Test
    void aValueOfTheWrongFormIsAnErrorWhereTheParserStatesOne() {
        String source = study("@Engine(value = \"sglang\", flags = \"--mem-fraction-static=most\")", BASELINE);
        assertOneError(source, "takes a number; got \"most\"", "\"--mem-fraction-static=most\"");
    }

    /**
     * vLLM's parser takes any float for {@code --gpu-memory-utilization}; its {@code CacheConfig} field,
     * {@code Field(default=0.92, gt=0, le=1)} (vllm/config/cache.py at 0.26.0), refuses 95 when the server builds its
     * config: a share written as a percentage is an error on the flag, not a failed start.
     */
    @Test
    void aNumberOutsideItsConfigFieldsBoundsIsAnErrorOnTheFlag() {
        String source = study("@Engine(value = \"vllm\", flags = \"--gpu-memory-utilization=95\")", BASELINE);
        assertOneError(source, "takes a number greater than 0 and at most 1 (the bounds of its config field: vLLM's"
                + " parser reads 95, but the server then refuses to start); got 95", "\"--gpu-memory-utilization=95\"");
    }

    /** vLLM's {@code --max-num-seqs} is {@code type=int} without {@code nargs} (vllm-0.26.0.flags): one value. */
    @Test
    void severalValuesForASingleValuedFlagAreAnErrorOnIt() {
        String source = study("@Engine(value = \"vllm\", flags = \"--max-num-seqs=64 128\")", BASELINE);
        assertOneError(source, "takes one value (a whole number); got 2: 64, 128", "\"--max-num-seqs=64 128\"");
        assertThat(compile(study("@Engine(value = \"vllm\", flags = {\"--enable-lora\","
                + " \"--lora-modules=a=/x b=/y\"})", BASELINE)).errorMessages()).isEmpty();
    }

    @Test
    void aParamsValuesAreCheckedInTheFlagThatNamesIt() {
        String source = study("@Engine(\"vllm\")", """
                    @Param({"64",
                            "lots"})
                    public int maxNumSeqs;
                    @Baseline @Variant(flags = "--max-num-seqs=${maxNumSeqs}")
                    public void baseline() {}
                """);
        // the param's field is an int, so the processor reports "lots" there too; the flag's own check names the value
        assertThat(compile(source).errorMessages()).anySatisfy(m -> assertThat(m)
                .contains("takes a whole number; got \"lots\" (with @Param maxNumSeqs = lots)"));
    }

    @Test
    void aMemoryShareOfTheOtherEnginesMeaningIsAnErrorOnTheServerOptions() {
        String source = study("@Engine(\"sglang\")\n@ServerOptions(gpuMemoryFraction = 0.9)", BASELINE);
        assertOneError(source, "@ServerOptions for engine sglang: gpuMemoryFraction = 0.9 is the whole GPU budget",
                "@ServerOptions(gpuMemoryFraction = 0.9)");
        assertThat(compile(study("@Engine(\"sglang\")\n@ServerOptions(gpuMemoryFraction = 0.9, staticMemoryFraction = 0.85)",
                BASELINE)).errorMessages()).isEmpty();
    }

    @Test
    void aFlagWhoseValueNamesSeveralParamsIsCheckedByItsName() {
        String params = """
                    @Param({"mtp"}) public String method;
                    @Param({"1", "2"}) public int tokens;
                """;
        assertThat(compile(study("@Engine(\"vllm\")", params + """
                    @Baseline @Variant(flags =
                        "--speculative-config={\\"method\\":\\"${method}\\",\\"num_speculative_tokens\\":${tokens}}")
                    public void baseline() {}
                """)).errorMessages()).isEmpty();
        assertOneError(study("@Engine(\"vllm\")", params + """
                    @Baseline @Variant(flags =
                        "--speculative-confg={\\"method\\":\\"${method}\\",\\"num_speculative_tokens\\":${tokens}}")
                    public void baseline() {}
                """), "flag --speculative-confg is not a flag of vLLM 0.26.0; did you mean --speculative-config?",
                "\"--speculative-confg=");
    }

    @Test
    void anUnknownVersionIsAnErrorOnTheVersionNamingTheKnownOnes() {
        String source = study("""
                @Engine(value = "vllm",
                        version = "0.9.0")""", BASELINE);
        assertOneError(source, "no flag list of vLLM 0.9.0; expected one of 0.17.1, 0.26.0", "version = \"0.9.0\"");
        assertOneError(study("""
                @Engine(value = "command", command = {"srv", "--port", "{port}"},
                        version = "1.0")""", BASELINE), "only vllm and sglang have versions", "version = \"1.0\"");
        assertOneError(study("", BASELINE + """
                    @Variant(group = "g",
                             engineVersion = "0.5.9")
                    public void other() {}
                """), "engineVersion \"0.5.9\" without engine", "engineVersion = \"0.5.9\"");
    }
}
