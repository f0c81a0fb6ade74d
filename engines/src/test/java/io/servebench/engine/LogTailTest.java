package io.servebench.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The log's last line as a start's wait notice shows it: what a terminal would show of a progress bar. */
class LogTailTest {

    @Test
    void theLastLineIsWhatFollowsAProgressBarsLastCarriageReturn(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("s01.log");
        // as vLLM writes tqdm's bar: the same line redrawn after each carriage return, then blank lines
        Files.writeString(log, "INFO starting\nLoading safetensors checkpoint shards:   0% Completed | 0/4\r"
                + "Loading safetensors checkpoint shards:  25% Completed | 1/4\r\n\n  \n");
        assertThat(LogTail.lastLine(log, 160, List.of())).isEqualTo("Loading safetensors checkpoint shards:  25% Completed | 1/4");
        assertThat(LogTail.lastLine(log, 20, List.of())).isEqualTo("Loading safetenso...").hasSize(20);
    }

    @Test
    void anEmptyOrMissingLogHasNoLastLine(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("s02.log");
        Files.writeString(log, "");
        assertThat(LogTail.lastLine(log, 160, List.of())).isEmpty();
        assertThat(LogTail.lastLine(dir.resolve("missing.log"), 160, List.of())).startsWith("(cannot read ");
    }

    @Test
    void secretsTheEngineLoggedAreMaskedInWhatIsShown(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("s03.log");
        // SGLang logs its settings at start, its keys among them
        Files.writeString(log, "server_args=ServerArgs(model_path='m', api_key='sk-live-123', admin_api_key='adm-456')\n");
        List<String> secrets = io.servebench.engine.kind.Redaction.values(
                List.of("python3", "-m", "sglang.launch_server", "--admin-api-key", "adm-456", "--port", "30000"),
                java.util.Map.of("HF_TOKEN", "hf_abc", "CUDA_VISIBLE_DEVICES", "0"));
        assertThat(secrets).containsExactlyInAnyOrder("adm-456", "hf_abc");
        List<String> withKey = new java.util.ArrayList<>(secrets);
        withKey.add("sk-live-123");
        assertThat(LogTail.lastLine(log, 160, withKey))
                .isEqualTo("server_args=ServerArgs(model_path='m', api_key='***', admin_api_key='***')");
        assertThat(LogTail.describe(log, withKey)).contains("api_key='***', admin_api_key='***'")
                .doesNotContain("sk-live-123", "adm-456");
    }
}
