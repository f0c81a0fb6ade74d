package io.servebench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.workload.ChatMessage;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadParamsTest {

    @Test
    void thePoolIsSizedFromTheProfile() {
        assertThat(LoadParams.of(new ArrivalProfile.Concurrent(7)).maxInFlight()).isEqualTo(7);
        assertThat(LoadParams.of(new ArrivalProfile.Constant(8)).maxInFlight()).isEqualTo(LoadParams.DEFAULT_MAX_CONNECTIONS);
        assertThat(LoadParams.of(new ArrivalProfile.Constant(8)).withMaxConnections(64).maxInFlight()).isEqualTo(64);
    }

    @Test
    void theApiKeyNeverAppearsInTheTextForm() {
        LoadParams p = LoadParams.of(new ArrivalProfile.Constant(1)).withApiKey("sk-secret-123");
        assertThat(p.toString()).doesNotContain("sk-secret-123").contains("<redacted>");
    }

    @Test
    void invalidValuesAreRejectedByName() {
        LoadParams p = LoadParams.of(new ArrivalProfile.Constant(1));
        assertThatThrownBy(() -> p.withMaxConnections(0)).hasMessageContaining("maxConnections").hasMessageContaining("0");
        assertThatThrownBy(() -> p.withTimeouts(Duration.ZERO, Duration.ofSeconds(1))).hasMessageContaining("connectTimeout");
        assertThatThrownBy(() -> p.withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(-1))).hasMessageContaining("requestTimeout");
        assertThatThrownBy(() -> p.withApiKey(" ")).hasMessageContaining("apiKey");
    }

    @Test
    void chatBodiesFollowTheOpenAiStreamingFormat() throws Exception {
        RequestSpec spec = new RequestSpec(0, "Hello \"you\"", 3, 128, true, false);
        JsonNode body = new ObjectMapper().readTree(RequestBodies.build(OpenAiApi.CHAT, new Target(java.net.URI.create("http://127.0.0.1:8000"), "Qwen/Qwen3.5-9B"), spec, true).json());
        assertThat(body.toString()).isEqualTo("{\"model\":\"Qwen/Qwen3.5-9B\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Hello \\\"you\\\"\"}],\"max_tokens\":128,\"stream\":true,\"stream_options\":"
                + "{\"include_usage\":true,\"continuous_usage_stats\":true},\"min_tokens\":128,\"ignore_eos\":true}");
        JsonNode plain = new ObjectMapper().readTree(RequestBodies.build(OpenAiApi.COMPLETIONS, new Target(java.net.URI.create("http://127.0.0.1:8000"), "m"),
                new RequestSpec(0, "p", 1, 5, false, false), false).json());
        assertThat(plain.toString()).isEqualTo("{\"model\":\"m\",\"prompt\":\"p\",\"max_tokens\":5,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}}");
    }

    @Test
    void aRequestWithAContextSendsItsMessagesBeforeTheUserTurn() throws Exception {
        RequestSpec spec = new RequestSpec(0, "and a prefix", 9, 16, false, false, List.of(
                new ChatMessage("system", "be brief"),
                new ChatMessage("user", "what is a token"),
                new ChatMessage("assistant", "a piece of text")), null);
        JsonNode chat = new ObjectMapper().readTree(RequestBodies.build(OpenAiApi.CHAT, new Target(java.net.URI.create("http://127.0.0.1:8000"), "m"), spec, false).json());
        assertThat(chat.get("messages").toString()).isEqualTo("[{\"role\":\"system\",\"content\":\"be brief\"},"
                + "{\"role\":\"user\",\"content\":\"what is a token\"},{\"role\":\"assistant\",\"content\":\"a piece of text\"},"
                + "{\"role\":\"user\",\"content\":\"and a prefix\"}]");
        JsonNode completion = new ObjectMapper().readTree(RequestBodies.build(OpenAiApi.COMPLETIONS, new Target(java.net.URI.create("http://127.0.0.1:8000"), "m"), spec, false).json());
        assertThat(completion.get("prompt").asText()).isEqualTo("be brief\n\nwhat is a token\n\na piece of text\n\nand a prefix");
    }

    @Test
    void aRequestsOwnBodyFieldsGoInAfterTheStudysAndWin() throws Exception {
        RequestSpec spec = new RequestSpec(0, "hi", 1, 16, false, false, List.of(), "{\"temperature\": 0.7, \"top_p\": 0.9}");
        JsonNode body = new ObjectMapper().readTree(RequestBodies.build(OpenAiApi.CHAT, new Target(java.net.URI.create("http://127.0.0.1:8000"), "m"), spec, false,
                io.servebench.workload.BodyFields.parse("{\"temperature\": 0, \"seed\": 3}")).json());
        assertThat(body.get("temperature").asDouble()).isEqualTo(0.7);
        assertThat(body.get("top_p").asDouble()).isEqualTo(0.9);
        assertThat(body.get("seed").asInt()).isEqualTo(3);
    }
}
