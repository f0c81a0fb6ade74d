package io.servebench.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompletionRequestTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The payload of vLLM's own benchmark client for the chat API ({@code async_request_openai_chat_completions} in
     * {@code vllm/benchmarks/lib/endpoint_request_func.py}: model, messages, max_completion_tokens, stream,
     * stream_options.include_usage) reads as it means.
     */
    @Test
    void readsVllmBenchChatPayload() throws Exception {
        CompletionRequest r = CompletionRequest.parse(bytes("""
                {"model": "Qwen/Qwen3.5-9B", "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi there"}]}],
                 "temperature": 0.0, "max_completion_tokens": 128, "stream": true,
                 "stream_options": {"include_usage": true}}"""), true);
        assertThat(r.chat()).isTrue();
        assertThat(r.model()).contains("Qwen/Qwen3.5-9B");
        assertThat(r.input()).isEqualTo(new CompletionRequest.Messages(
                List.of(new CompletionRequest.Message("user", "Hi there\n"))));
        assertThat(r.maxTokens()).hasValue(128);
        assertThat(r.stream()).isTrue();
        assertThat(r.includeUsage()).isTrue();
        assertThat(r.continuousUsage()).isFalse();
        assertThat(r.ignoreEos()).isFalse();
    }

    @Test
    void readsCompletionPrompts() throws Exception {
        assertThat(CompletionRequest.parse(bytes("{\"prompt\": [\"one\"]}"), false).input())
                .isEqualTo(new CompletionRequest.Text("one"));
        CompletionRequest ids = CompletionRequest.parse(bytes("{\"prompt\": [7, 8, 9], \"max_tokens\": 4}"), false);
        assertThat(((CompletionRequest.TokenIds) ids.input()).ids()).containsExactly(7, 8, 9);
        assertThat(ids.model()).isEmpty();
        assertThat(ids.maxTokens()).hasValue(4);
    }

    /** What the load generator writes, read back by Jackson (not by this class's parser). */
    @Test
    void writesTheFieldsTheServersRead() throws Exception {
        CompletionRequest r = new CompletionRequest(new CompletionRequest.Messages(List.of(
                new CompletionRequest.Message("system", "Be brief."), new CompletionRequest.Message("user", "Why?"))),
                Optional.of("m"), OptionalInt.of(64), 64, true, true, true, true);
        ObjectNode study = JSON.createObjectNode().put("temperature", 0).put("max_tokens", 32);
        ObjectNode own = JSON.createObjectNode().put("temperature", 0.7);
        JsonNode body = JSON.readTree(r.toJson(List.of(study, own)));
        assertThat(body.toString()).isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                + "{\"role\":\"user\",\"content\":\"Why?\"}],\"max_tokens\":32,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true},\"min_tokens\":64,"
                + "\"ignore_eos\":true,\"temperature\":0.7}");
    }

    @Test
    void aWrittenRequestParsesToItself() throws Exception {
        CompletionRequest r = new CompletionRequest(new CompletionRequest.Text("a b c"), Optional.of("m"),
                OptionalInt.of(8), 0, false, true, true, false);
        assertThat(CompletionRequest.parse(r.toJson(List.of()), false)).isEqualTo(r);
    }

    @Test
    void namesTheBadFieldAndWhatItShouldBe() {
        assertThatThrownBy(() -> CompletionRequest.parse(bytes("{\"messages\": []}"), true))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("'messages' is required");
        assertThatThrownBy(() -> CompletionRequest.parse(bytes("{\"prompt\": \"x\", \"max_tokens\": \"5\"}"), false))
                .hasMessage("'max_tokens' must be an integer, got \"5\"");
        assertThatThrownBy(() -> CompletionRequest.parse(bytes("{\"prompt\": \"x\", \"max_tokens\": 0}"), false))
                .hasMessage("max_tokens must be at least 1, got 0");
        assertThatThrownBy(() -> CompletionRequest.parse(bytes("{\"prompt\": \"x\", \"max_tokens\": 4, \"min_tokens\": 5}"), false))
                .hasMessage("min_tokens must be less than or equal to max_tokens=4, got 5");
        // vLLM's own wording (protocol.py, validate_stream_options)
        assertThatThrownBy(() -> CompletionRequest.parse(bytes("{\"prompt\": \"x\", \"stream_options\": {}}"), false))
                .hasMessage("Stream options can only be defined when `stream=True`.");
        assertThatThrownBy(() -> CompletionRequest.parse(bytes("{\"prompt\": {}}"), false))
                .hasMessageStartingWith("'prompt' is required");
        assertThatThrownBy(() -> CompletionRequest.parse(bytes("[1]"), false))
                .hasMessage("request body must be a JSON object");
        assertThatThrownBy(() -> CompletionRequest.parse(bytes("{\"prompt\": "), false))
                .hasMessageStartingWith("request body is not valid JSON");
        assertThatThrownBy(() -> CompletionRequest.parse(bytes("{\"messages\": [{\"role\": \"user\", \"content\": 3}]}"), true))
                .hasMessage("messages[0].content must be a string or an array of text parts");
    }

    @Test
    void tokenizeTakesAPromptOrMessages() throws Exception {
        assertThat(CompletionRequest.parseTokenize(bytes("{\"prompt\": \"x y\"}")).chat()).isFalse();
        assertThat(CompletionRequest.parseTokenize(bytes("{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}"))
                .chat()).isTrue();
    }

    @Test
    void theBodyWrittenStraightToBytesIsTheTreesToTheByte() {
        // the straight writer serves a body without extra fields; an empty extra object takes the tree's way
        java.util.SplittableRandom random = new java.util.SplittableRandom(37);
        String[] texts = {"", "plain", "quotes \" and \\ backslashes", "tab\tnew\nline \u0001", "ünïcödé 漢字 \uD83D\uDE00",
            "</script>"};
        for (int i = 0; i < 500; i++) {
            CompletionRequest.Input input = switch (random.nextInt(3)) {
                case 0 -> {
                    java.util.List<CompletionRequest.Message> messages = new java.util.ArrayList<>();
                    for (int m = 0, n = 1 + random.nextInt(3); m < n; m++) {
                        messages.add(new CompletionRequest.Message(m % 2 == 0 ? "user" : "assistant",
                                texts[random.nextInt(texts.length)] + i));
                    }
                    yield new CompletionRequest.Messages(messages);
                }
                case 1 -> new CompletionRequest.Text(texts[random.nextInt(texts.length)] + i);
                default -> new CompletionRequest.TokenIds(random.longs(1 + random.nextInt(5), 0, 200_000).toArray());
            };
            CompletionRequest request = new CompletionRequest(input,
                    random.nextBoolean() ? java.util.Optional.of("Qwen/Qwen3.5-9B") : java.util.Optional.empty(),
                    random.nextBoolean() ? java.util.OptionalInt.of(1 + random.nextInt(4096)) : java.util.OptionalInt.empty(),
                    random.nextInt(3), random.nextBoolean(), random.nextBoolean(), random.nextBoolean(), random.nextBoolean());
            byte[] tree = request.toJson(java.util.List.of(new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()));
            assertThat(new String(request.toJson(java.util.List.of()), java.nio.charset.StandardCharsets.UTF_8))
                    .as("request %d", i).isEqualTo(new String(tree, java.nio.charset.StandardCharsets.UTF_8));
        }
    }
}
