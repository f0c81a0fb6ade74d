package io.servebench.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The events as vLLM's OpenAI server writes them (vllm/entrypoints/openai/protocol.py's stream response models). */
class StreamChunksTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StreamChunks CHAT = new StreamChunks(true, "chatcmpl-1", 7, "m");

    private static JsonNode parse(StringBuilder event) throws Exception {
        String s = event.toString();
        assertThat(s).startsWith("data: ").endsWith("\n\n");
        return JSON.readTree(s.substring("data: ".length()));
    }

    @Test
    void aChatTokenEventReadsAsVllmWritesIt() {
        assertThat(CHAT.token(new StringBuilder(), " hi", false, null, null)).hasToString("data: {\"id\":\"chatcmpl-1\","
                + "\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\" hi\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    }

    @Test
    void theLastEventFinishesAndEveryFieldParses() throws Exception {
        JsonNode last = parse(CHAT.token(new StringBuilder(), "x", true, "length", new StreamChunks.Usage(10, 3)));
        JsonNode choice = last.path("choices").path(0);
        assertThat(choice.path("delta").path("reasoning_content").asText()).isEqualTo("x");
        assertThat(choice.path("finish_reason").asText()).isEqualTo("length");
        assertThat(choice.has("stop_reason")).isTrue();
        assertThat(last.path("usage").path("total_tokens").asInt()).isEqualTo(13);
        assertThat(last.path("usage").path("completion_tokens").asInt()).isEqualTo(3);

        JsonNode role = parse(CHAT.role(new StringBuilder(), null));
        assertThat(role.path("choices").path(0).path("delta").path("role").asText()).isEqualTo("assistant");
        assertThat(role.path("choices").path(0).path("delta").path("content").asText()).isEmpty();

        JsonNode usage = parse(CHAT.usage(new StringBuilder(), new StreamChunks.Usage(5, 2)));
        assertThat(usage.path("choices").isArray()).isTrue();
        assertThat(usage.path("choices")).isEmpty();
        assertThat(usage.path("usage").path("prompt_tokens").asInt()).isEqualTo(5);

        JsonNode error = parse(StreamChunks.error(new StringBuilder(), "out of \"KV\" cache", "InternalServerError", 500));
        assertThat(error.path("error").path("message").asText()).isEqualTo("out of \"KV\" cache");
        assertThat(error.path("error").path("code").asInt()).isEqualTo(500);
    }

    @Test
    void aCompletionCarriesTextAndEveryStringStaysAscii() throws Exception {
        StreamChunks completion = new StreamChunks(false, "cmpl-é\n", 7, "m");
        StringBuilder event = completion.token(new StringBuilder(), "naïve \\ \"quoted\"\ttab", false, null, null);
        assertThat(event.chars()).allMatch(c -> c < 0x80);
        JsonNode chunk = parse(event);
        assertThat(chunk.path("object").asText()).isEqualTo("text_completion");
        assertThat(chunk.path("id").asText()).isEqualTo("cmpl-é\n");
        assertThat(chunk.path("choices").path(0).path("text").asText()).isEqualTo("naïve \\ \"quoted\"\ttab");
    }
}
