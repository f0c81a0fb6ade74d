package io.servebench.processor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The processor's artifact leaves the runtime off a study project's processor path: its libraries (Netty, the
 * tokenizers, JNA, HdrHistogram) and its modules (the engines, the load generator, the metrics, the simulator, the
 * result model and its reports), none of
 * which the study model or its vocabulary depends on; this module's tests run with the path it ships: every other
 * test class here checks studies without those libraries. This one says so, so that a dependency that brings one back
 * fails here rather than in a user's build.
 */
class ProcessorPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"io.netty.channel.Channel", "ai.djl.huggingface.tokenizers.HuggingFaceTokenizer",
            "com.sun.jna.Native", "org.HdrHistogram.Histogram", "io.servebench.engine.Engines",
            "io.servebench.load.LoadGenerator", "io.servebench.metrics.MetricsAggregator", "io.servebench.sim.SimParams",
            "io.servebench.wire.http.HttpServer", "io.servebench.results.RunResult",
            "io.servebench.reports.HtmlReportWriter"})
    void theRuntimesLibrariesAreNotOnTheProcessorPath(String className) {
        assertThatThrownBy(() -> Class.forName(className, false, getClass().getClassLoader()))
                .isInstanceOf(ClassNotFoundException.class);
    }

    /**
     * Every engine kind's rules, and the workload's dataset rules, run on this path: a study of each kind compiles clean,
     * and one with a mistake of its kind is reported, so the rule was applied, not skipped by a missing class.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "@Engine(\"sim\")|@Engine(value = \"sim\", url = \"http://127.0.0.1:8000\")|url is only for engine kind",
            "@Engine(value = \"vllm\", flags = \"--max-model-len=4096\")|@Engine(value = \"vllm\", flags = \"--max-model-lenn=4096\")|did you mean --max-model-len",
            "@Engine(value = \"sglang\", flags = \"--context-length=4096\")|@Engine(value = \"sglang\", command = \"x\")|command is only for engine kind",
            "@Engine(value = \"endpoint\", url = \"http://127.0.0.1:8000\")|@Engine(value = \"endpoint\", url = \"ftp://x\")|is not an http(s) URL",
            "@Engine(value = \"command\", command = {\"python3\", \"-m\", \"server\", \"--port\", \"{port}\"})|@Engine(value = \"command\", command = {\"python3\", \"server.py\"})|no {port} placeholder",
            "@Engine(value = \"vllm\", image = \"vllm/vllm-openai:v0.17.1\")|@Engine(value = \"endpoint\", url = \"http://h:1\", image = \"x\")|image runs",
            "@Workload(dataset = \"synthetic-sharegpt\", rate = 2, requests = 10)|@Workload(dataset = \"sharegpt:\", rate = 2)|dataset"})
    void everyEngineKindsRulesAndTheDatasetRulesRunWithoutTheRuntimesLibraries(String clean, String wrong, String error) {
        assertThat(InMemoryCompiler.compile(InMemoryCompiler.study(clean, InMemoryCompiler.BASELINE)).errorMessages())
                .as(clean).isEmpty();
        assertThat(InMemoryCompiler.compile(InMemoryCompiler.study(wrong, InMemoryCompiler.BASELINE)).errorMessages())
                .as(wrong).anySatisfy(m -> assertThat(m).contains(error));
    }

    @Test
    void whatTheProcessorNeedsIsThere() throws ClassNotFoundException {
        // the control: the lookup above would also fail for a class that is there if the loader were wrong
        assertThat(Class.forName("io.servebench.study.StudyChecker", false, getClass().getClassLoader())).isNotNull();
    }
}
