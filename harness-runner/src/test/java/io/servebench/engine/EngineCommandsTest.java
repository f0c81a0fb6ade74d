package io.servebench.engine;

import io.servebench.engine.ServerConfig;
import io.servebench.engine.EngineSetup;
import io.servebench.engine.Flag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The exact argument lists ServeBench runs: what a reader of the README can type by hand. */
class EngineCommandsTest {

    private static final Path HF = Path.of("/data/hf");

    private static List<Flag> flags(String... text) {
        return java.util.Arrays.stream(text).map(t -> Flag.parse(t).orElseThrow()).toList();
    }

    private static EngineSetup setup(String executable, List<String> env, List<String> command, String image) {
        return new EngineSetup(executable, env, "", command, "", image);
    }

    @Test
    void vllmServe() {
        ServerConfig server = new ServerConfig("vllm", "Qwen/Qwen3.5-9B",
                flags("--reasoning-parser=qwen3", "--max-model-len 32768", "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}"));
        LaunchCommand c = EngineCommands.of(server, 8123, "docker", HF);
        assertThat(c.argv()).containsExactly("vllm", "serve", "Qwen/Qwen3.5-9B", "--host", "127.0.0.1", "--port", "8123",
                "--max-model-len=32768", "--reasoning-parser=qwen3",
                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}");
        assertThat(c.env()).isEmpty();
        assertThat(c.cleanup()).isEmpty();
    }

    @Test
    void sglangLaunchServerWithExecutableAndEnvironment() {
        ServerConfig server = new ServerConfig("sglang", "Qwen/Qwen3.5-9B", flags("--context-length=32768"),
                setup("/opt/venv/bin/python", List.of("CUDA_VISIBLE_DEVICES=1", "HF_TOKEN=hf_secret"), List.of(), ""));
        LaunchCommand c = EngineCommands.of(server, 30001, "docker", HF);
        assertThat(c.argv()).containsExactly("/opt/venv/bin/python", "-m", "sglang.launch_server", "--model-path",
                "Qwen/Qwen3.5-9B", "--host", "127.0.0.1", "--port", "30001", "--context-length=32768");
        assertThat(c.env()).isEqualTo(Map.of("CUDA_VISIBLE_DEVICES", "1", "HF_TOKEN", "hf_secret"));
        assertThat(c.display()).contains("HF_TOKEN=***").contains("CUDA_VISIBLE_DEVICES=1").doesNotContain("hf_secret");
    }

    @Test
    void genericCommandFillsPlaceholders() {
        ServerConfig server = new ServerConfig("command", "/models/q.gguf", flags("--ctx-size=8192"),
                setup("", List.of(), List.of("llama-server", "-m", "{model}", "--host", "{host}", "--port", "{port}",
                        "--api-key", "sk-123"), ""));
        LaunchCommand c = EngineCommands.of(server, 9000, "docker", HF);
        assertThat(c.argv()).containsExactly("llama-server", "-m", "/models/q.gguf", "--host", "127.0.0.1", "--port", "9000",
                "--api-key", "sk-123", "--ctx-size=8192");
        assertThat(c.display()).contains("--api-key *** ").doesNotContain("sk-123");
    }

    @Test
    void dockerAndPodmanContainers() {
        ServerConfig server = new ServerConfig("vllm", "Qwen/Qwen3.5-9B", flags("--max-model-len=32768"),
                setup("", List.of("HF_TOKEN=hf_secret"), List.of(), "vllm/vllm-openai:v0.17.1"));
        LaunchCommand docker = EngineCommands.of(server, 8200, "docker", HF);
        String name = "servebench-" + server.hash() + "-8200";
        assertThat(docker.argv()).containsExactly("docker", "run", "--rm", "--name", name, "--gpus", "all", "--ipc=host",
                "-p", "127.0.0.1:8200:8200", "-v", "/data/hf:/root/.cache/huggingface", "-e", "HF_TOKEN=hf_secret",
                "--entrypoint", "vllm", "vllm/vllm-openai:v0.17.1",
                "serve", "Qwen/Qwen3.5-9B", "--host", "0.0.0.0", "--port", "8200", "--max-model-len=32768");
        assertThat(docker.cleanup()).containsExactly("docker", "rm", "-f", name);
        assertThat(docker.env()).isEmpty();
        assertThat(docker.display()).contains("HF_TOKEN=***").doesNotContain("hf_secret");

        LaunchCommand podman = EngineCommands.of(server, 8200, "podman", HF);
        assertThat(podman.argv()).startsWith("podman", "run", "--rm", "--name", name, "--device", "nvidia.com/gpu=all");
        assertThat(podman.cleanup()).containsExactly("podman", "rm", "-f", name);
    }

    @Test
    void kindsThatAreNotProcessesAreRefused() {
        assertThatThrownBy(() -> EngineCommands.of(new ServerConfig("endpoint", "m", List.of()), 1, "docker", HF))
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
}
