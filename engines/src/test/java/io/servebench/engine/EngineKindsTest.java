package io.servebench.engine;

import io.servebench.engine.kind.EngineKind;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.engine.kind.Redaction;
import io.servebench.flags.Flag;
import io.servebench.results.ServeCommand;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What each engine kind does: the exact argument lists ServeBench runs (what a reader of the README can type by hand),
 * the commands the reports print, and the setups a study may give it.
 */
class EngineKindsTest {

    private static final Path HF = Path.of("/data/hf");

    private static List<Flag> flags(String... text) {
        return java.util.Arrays.stream(text).map(t -> Flag.parse(t).orElseThrow()).toList();
    }

    private static EngineSetup setup(String executable, List<String> env, List<String> command, String image) {
        return new EngineSetup(executable, env, "", command, "", image);
    }

    @Test
    void vllmServe() {
        ServerConfig server = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3.5-9B",
                flags("--reasoning-parser=qwen3", "--max-model-len 32768", "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}"));
        LaunchCommand c = KindStarts.launch(server, 8123, "docker", HF, EngineParams.LOOPBACK);
        assertThat(c.argv()).containsExactly("vllm", "serve", "Qwen/Qwen3.5-9B", "--host", "127.0.0.1", "--port", "8123",
                "--max-model-len=32768", "--reasoning-parser=qwen3",
                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}");
        // vllm/entrypoints/serve/cache/api_router.py: attach_router adds /reset_prefix_cache only when
        // envs.VLLM_SERVER_DEV_MODE is set (docs.vllm.ai, v0.14.0 and stable)
        assertThat(c.env()).isEqualTo(Map.of("VLLM_SERVER_DEV_MODE", "1"));
        assertThat(c.cleanup()).isEmpty();
    }

    @Test
    void anEngineThatLoadWorkersOnOtherMachinesReachListensOnEveryInterfaceAndItsContainerIsPublishedThere() {
        ServerConfig server = new ServerConfig(EngineKinds.SGLANG, "Qwen/Qwen3-8B", List.of());
        assertThat(KindStarts.launch(server, 30000, "docker", HF, EngineParams.ALL_INTERFACES).argv())
                .containsSubsequence("--host", "0.0.0.0", "--port", "30000");
        ServerConfig image = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3-8B", List.of(),
                setup("", List.of(), List.of(), "vllm/vllm-openai:v0.17.1"));
        assertThat(KindStarts.launch(image, 8200, "podman", HF, EngineParams.ALL_INTERFACES).argv())
                .containsSubsequence("-p", "0.0.0.0:8200:8200").doesNotContain("127.0.0.1:8200:8200");
    }

    @Test
    void aStudysOwnEnvironmentAndFlagsWinOverWhatABenchmarkAddsAndNothingIsAddedTwice() {
        ServerConfig vllm = new ServerConfig(EngineKinds.VLLM, "m", List.of(),
                setup("", List.of("VLLM_SERVER_DEV_MODE=0"), List.of(), ""));
        assertThat(KindStarts.launch(vllm, 8000, "docker", HF, EngineParams.LOOPBACK).env()).isEqualTo(Map.of("VLLM_SERVER_DEV_MODE", "0"));
        ServerConfig sglang = new ServerConfig(EngineKinds.SGLANG, "m", flags("--enable-metrics"));
        assertThat(KindStarts.launch(sglang, 30000, "docker", HF, EngineParams.LOOPBACK).argv()).containsOnlyOnce("--enable-metrics");
        // the command a study recommends for deployment is the study's, without what the benchmark adds
        assertThat(Engines.serveCommand(new ServerConfig(EngineKinds.SGLANG, "m", List.of()),
                EngineParams.defaults(EngineParams.Simulate.OFF, 1)).orElseThrow().command())
                .doesNotContain("--enable-metrics");
    }

    @Test
    void sglangLaunchServerWithExecutableAndEnvironment() {
        ServerConfig server = new ServerConfig(EngineKinds.SGLANG, "Qwen/Qwen3.5-9B", flags("--context-length=32768"),
                setup("/opt/venv/bin/python", List.of("CUDA_VISIBLE_DEVICES=1", "HF_TOKEN=hf_secret"), List.of(), ""));
        LaunchCommand c = KindStarts.launch(server, 30001, "docker", HF, EngineParams.LOOPBACK);
        // python/sglang/srt/server_args.py: --enable-metrics (store_true) turns on /metrics, a 404 without it
        assertThat(c.argv()).containsExactly("/opt/venv/bin/python", "-m", "sglang.launch_server", "--model-path",
                "Qwen/Qwen3.5-9B", "--host", "127.0.0.1", "--port", "30001", "--context-length=32768", "--enable-metrics");
        assertThat(c.env()).isEqualTo(Map.of("CUDA_VISIBLE_DEVICES", "1", "HF_TOKEN", "hf_secret"));
        assertThat(c.display()).contains("HF_TOKEN=***").contains("CUDA_VISIBLE_DEVICES=1").doesNotContain("hf_secret");
    }

    @Test
    void genericCommandFillsPlaceholders() {
        ServerConfig server = new ServerConfig(EngineKinds.COMMAND, "/models/q.gguf", flags("--ctx-size=8192"),
                setup("", List.of(), List.of("llama-server", "-m", "{model}", "--host", "{host}", "--port", "{port}",
                        "--api-key", "sk-123"), ""));
        LaunchCommand c = KindStarts.launch(server, 9000, "docker", HF, EngineParams.LOOPBACK);
        assertThat(c.argv()).containsExactly("llama-server", "-m", "/models/q.gguf", "--host", "127.0.0.1", "--port", "9000",
                "--api-key", "sk-123", "--ctx-size=8192");
        assertThat(c.display()).contains("--api-key *** ").doesNotContain("sk-123");
    }

    @Test
    void aVariableHandedOnIsOnNoCommandLine(@org.junit.jupiter.api.io.TempDir Path dir) {
        // a bare NAME: the container runtime fills -e NAME in from its own environment, which is ServeBench's
        ServerConfig container = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3.5-9B", flags(),
                setup("", List.of("HF_TOKEN", "CUDA_VISIBLE_DEVICES=1"), List.of(), "vllm/vllm-openai:v0.17.1"));
        LaunchCommand docker = KindStarts.launch(container, 8200, "docker", HF, EngineParams.LOOPBACK);
        assertThat(String.join(" ", docker.argv())).contains(" -e HF_TOKEN ", " -e CUDA_VISIBLE_DEVICES=1 ");
        assertThat(docker.env()).isEmpty();
        // a process inherits ServeBench's environment, the variable with it: nothing is set over it
        ServerConfig process = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3.5-9B", flags(),
                setup("", List.of("HF_TOKEN", "CUDA_VISIBLE_DEVICES=1"), List.of(), ""));
        assertThat(KindStarts.launch(process, 8200, "docker", HF, EngineParams.LOOPBACK).env())
                .containsEntry("CUDA_VISIBLE_DEVICES", "1").doesNotContainKey("HF_TOKEN");
        // one ServeBench's environment lacks fails the start at once, saying what to export
        ServerConfig unset = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3.5-9B", flags(),
                setup("", List.of("SERVEBENCH_TEST_NEVER_SET_TOKEN"), List.of(), ""));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Engines.start(unset,
                        EngineParams.defaults(EngineParams.Simulate.OFF, 1), dir.resolve("s.log")))
                .isInstanceOf(EngineStartException.class)
                .hasMessageContaining("environment entry SERVEBENCH_TEST_NEVER_SET_TOKEN hands the engine ServeBench's"
                        + " own SERVEBENCH_TEST_NEVER_SET_TOKEN, and ServeBench's environment has none; export");
    }

    @Test
    void dockerAndPodmanContainers() {
        ServerConfig server = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3.5-9B", flags("--max-model-len=32768"),
                setup("", List.of("HF_TOKEN=hf_secret"), List.of(), "vllm/vllm-openai:v0.17.1"));
        LaunchCommand docker = KindStarts.launch(server, 8200, "docker", HF, EngineParams.LOOPBACK);
        String name = "servebench-" + server.hash() + "-8200";
        List<String> serve = List.of("vllm", "serve", "Qwen/Qwen3.5-9B", "--host", "0.0.0.0", "--port", "8200",
                "--max-model-len=32768");
        Map<String, String> env = new java.util.LinkedHashMap<>();
        env.put("VLLM_SERVER_DEV_MODE", "1");
        env.put("HF_TOKEN", "hf_secret");
        assertThat(Container.run("docker", name, "vllm/vllm-openai:v0.17.1", EngineParams.LOOPBACK, 8200, env, HF, serve, true)).containsExactly(
                "docker", "run", "--rm", "--name", name, "--gpus", "all", "--ipc=host",
                "-p", "127.0.0.1:8200:8200", "-v", "/data/hf:/root/.cache/huggingface", "-e", "VLLM_SERVER_DEV_MODE=1",
                "-e", "HF_TOKEN=hf_secret",
                "--entrypoint", "vllm", "vllm/vllm-openai:v0.17.1",
                "serve", "Qwen/Qwen3.5-9B", "--host", "0.0.0.0", "--port", "8200", "--max-model-len=32768");
        // the launch asks for GPUs only where the host has them: the runtimes refuse to start anything otherwise
        assertThat(docker.argv()).isEqualTo(Container.run("docker", name, "vllm/vllm-openai:v0.17.1", EngineParams.LOOPBACK, 8200, env, HF, serve,
                Container.hostHasGpus()));
        assertThat(Container.run("docker", name, "i", EngineParams.LOOPBACK, 8200, Map.of(), HF, serve, false)).doesNotContain("--gpus");
        assertThat(docker.cleanup()).containsExactly("docker", "rm", "-f", name);
        assertThat(docker.env()).isEmpty();
        assertThat(docker.display()).contains("HF_TOKEN=***").doesNotContain("hf_secret");

        LaunchCommand podman = KindStarts.launch(server, 8200, "podman", HF, EngineParams.LOOPBACK);
        assertThat(Container.run("podman", name, "i", EngineParams.LOOPBACK, 8200, Map.of(), HF, serve, true))
                .startsWith("podman", "run", "--rm", "--name", name, "--device", "nvidia.com/gpu=all");
        assertThat(Container.run("podman", name, "i", EngineParams.LOOPBACK, 8200, Map.of(), HF, serve, false))
                .startsWith("podman", "run", "--rm", "--name", name, "--ipc=host");
        assertThat(podman.cleanup()).containsExactly("podman", "rm", "-f", name);
    }

    @Test
    void kindsThatAreNotProcessesAreRefused() {
        ServerConfig endpoint = new ServerConfig(EngineKinds.ENDPOINT, "m", List.of());
        assertThatThrownBy(() -> KindStarts.launch(endpoint, 1, "docker", HF, EngineParams.LOOPBACK))
                .hasMessageContaining("\"endpoint\" is not started as a process");
    }

    @Test
    void redactionMasksSecretsOnlyByTheirName() {
        assertThat(Redaction.args(List.of("--api-key", "a", "--api-key=b", "--max-num-batched-tokens=8192", "--tokenizer", "t",
                "OPENAI_API_KEY=c", "HF_TOKEN=d", "--hf-token", "e")))
                .containsExactly("--api-key", "***", "--api-key=***", "--max-num-batched-tokens=8192", "--tokenizer", "t",
                        "OPENAI_API_KEY=***", "HF_TOKEN=***", "--hf-token", "***");
        assertThat(Redaction.env(Map.of("AWS_SECRET_ACCESS_KEY", "x"))).containsEntry("AWS_SECRET_ACCESS_KEY", "***");
    }

    @Test
    void versionCommandsOfTheInstalledEngineNotOfAContainer() {
        assertThat(KindStarts.versionCommand(new ServerConfig(EngineKinds.VLLM, "m", List.of())))
                .containsExactly("vllm", "--version");
        assertThat(KindStarts.versionCommand(new ServerConfig(EngineKinds.SGLANG, "m", List.of(),
                setup("/opt/venv/bin/python", List.of(), List.of(), ""))))
                .containsExactly("/opt/venv/bin/python", "-c", "import sglang; print(sglang.__version__)");
        assertThat(KindStarts.versionCommand(new ServerConfig(EngineKinds.VLLM, "m", List.of(),
                setup("", List.of(), List.of(), "vllm/vllm-openai:v0.17.1")))).isEmpty();
        assertThat(KindStarts.versionCommand(new ServerConfig(EngineKinds.COMMAND, "m", List.of(),
                setup("", List.of(), List.of("srv", "{port}"), "")))).isEmpty();
    }

    @Test
    void serveCommandsAreTheDialectsAndQuoteWhatAShellWouldSplit() {
        ServerConfig sglang = new ServerConfig(EngineKinds.SGLANG, "Qwen/Qwen3.5-9B",
                flags("--chat-template=it's {x}", "--disable-radix-cache"));
        EngineParams simulated = EngineParams.defaults(EngineParams.Simulate.IN_PROCESS, 1);
        EngineParams real = EngineParams.defaults(EngineParams.Simulate.OFF, 1);
        // the program the reports print is the one ServeBench starts: python3, not python
        assertThat(Engines.serveCommand(sglang, simulated)).contains(new ServeCommand("python3 -m sglang.launch_server"
                + " --model-path Qwen/Qwen3.5-9B '--chat-template=it'\\''s {x}' --disable-radix-cache", "SGLang", true));
        assertThat(Engines.serveCommand(sglang, real).orElseThrow().simulated()).isFalse();
        assertThat(KindStarts.launch(sglang, 30000, "docker", HF, EngineParams.LOOPBACK).argv()).startsWith("python3");
        // the simulated engine reads vLLM's flags: its command is vLLM's, and its numbers are simulated
        ServerConfig sim = new ServerConfig(EngineKinds.SIM, "m", flags("--max-model-len=4096"));
        assertThat(Engines.serveCommand(sim, real)).contains(new ServeCommand("vllm serve m --max-model-len=4096", "vLLM", true));
        assertThat(Engines.serveCommand(new ServerConfig(EngineKinds.ENDPOINT, "m", List.of()), real)).isEmpty();
    }

    @Test
    void theReferenceStudysRecommendationIsStudyMdsStep3Command() {
        ServerConfig recommended = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3.5-9B", flags("--reasoning-parser=qwen3",
                "--max-model-len=32768", "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}",
                "--language-model-only", "--performance-mode=interactivity"));
        // flags in the canonical (sorted) order in which a server configuration keeps them
        assertThat(Engines.serveCommand(recommended, EngineParams.defaults(EngineParams.Simulate.OFF, 1)).orElseThrow()
                .command()).isEqualTo("vllm serve Qwen/Qwen3.5-9B --language-model-only --max-model-len=32768"
                + " --performance-mode=interactivity --reasoning-parser=qwen3"
                + " '--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}'");
    }

    @Test
    void aStudysEngineSetupMustFitItsKind() {
        assertThat(EngineKinds.setupProblems(EngineKinds.COMMAND, setup("", List.of(), List.of(), "")))
                .containsOnlyKeys("value").hasValueSatisfying(new org.assertj.core.api.Condition<>(
                        m -> m.contains("needs command = {...}"), "needs a command"));
        assertThat(EngineKinds.setupProblems(EngineKinds.COMMAND, setup("", List.of(), List.of("srv", "--port=8"), "")))
                .containsEntry("command", "command has no {port} placeholder; expected the argument that sets the server's"
                        + " port to contain {port}, e.g. \"--port\", \"{port}\"");
        assertThat(EngineKinds.setupProblems(EngineKinds.ENDPOINT, EngineSetup.NONE)).containsEntry("value",
                "engine kind \"endpoint\" needs url; expected the running server's base URL, e.g. url = \"http://127.0.0.1:8000\"");
        assertThat(EngineKinds.setupProblems(EngineKinds.ENDPOINT, new EngineSetup("", List.of(), "", List.of(), "ftp://x", "")))
                .containsKey("url");
        assertThat(EngineKinds.setupProblems(EngineKinds.VLLM, setup("", List.of(), List.of("srv", "{port}"), "")))
                .containsEntry("command", "command is only for engine kind \"command\"; this study's engine is \"vllm\"");
        assertThat(EngineKinds.setupProblems(EngineKinds.SIM, new EngineSetup("", List.of(), "", List.of(), "http://h:1", "img")))
                .containsEntry("url", "url is only for engine kind \"endpoint\"; this study's engine is \"sim\"")
                .containsEntry("image", "image runs vllm, sglang or command engines in a container; engine \"sim\" cannot use one");
        assertThat(EngineKinds.setupProblems(EngineKinds.SGLANG, setup("/bin/py", List.of("A=1"), List.of(), "img"))).isEmpty();
    }

    @Test
    void everyKindIsFoundByItsNameAndAnUnknownNameListsThem() {
        assertThat(EngineKinds.ALL).extracting(EngineKind::name).containsExactly("vllm", "sglang", "command", "endpoint", "sim");
        EngineKinds.ALL.forEach(k -> assertThat(EngineKinds.named(k.name())).isSameAs(k));
        assertThatThrownBy(() -> EngineKinds.named("trt"))
                .hasMessage("unknown engine kind \"trt\"; expected one of vllm, sglang, command, endpoint, sim");
        assertThat(EngineKinds.ALL).filteredOn(EngineKind::continuousUsage).extracting(EngineKind::name)
                .containsExactly("vllm", "sglang", "sim");
        assertThat(EngineKinds.SGLANG.cacheResetPath()).contains("flush_cache");
        assertThat(EngineKinds.SIM.cacheResetPath()).contains("reset_prefix_cache");
        assertThat(EngineKinds.ENDPOINT.cacheResetPath()).isEmpty();
    }

    @Test
    void printedCommandsQuoteForAShellButLeaveMaskedSecretsReadable() {
        LaunchCommand c = new LaunchCommand(List.of("srv", "--glob=a*b", "--chat-template={x}", "--api-key", "sk-1"),
                Map.of("HF_TOKEN", "hf_x"), null, 1);
        assertThat(c.display()).isEqualTo("HF_TOKEN=*** srv '--glob=a*b' '--chat-template={x}' --api-key ***");
    }
}
