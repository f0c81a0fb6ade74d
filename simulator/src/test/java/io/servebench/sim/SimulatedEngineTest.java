package io.servebench.sim;

import io.servebench.workload.SimTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import io.servebench.truth.SentEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The engine's HTTP API over real sockets: formats, lengths, usage, reasoning, errors and ground truth. */
class SimulatedEngineTest {

    static final String MODEL = "Qwen/Qwen3.5-9B";
    private static SimulatedEngine engine;
    private static SimulatedEngine reasoningEngine;

    @BeforeAll
    static void start() throws IOException {
        engine = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--max-model-len=4096")), 0, 7);
        reasoningEngine = SimulatedEngine.startRecording(
                SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--reasoning-parser=qwen3", "--max-model-len=4096")), 0, 7);
    }

    @AfterAll
    static void stop() {
        engine.close();
        reasoningEngine.close();
    }

    @Test
    void healthAndModels() {
        assertThat(SimHttp.get(engine, "/health").status()).isEqualTo(200);
        SimHttp.Reply models = SimHttp.get(engine, "/v1/models");
        assertThat(models.status()).isEqualTo(200);
        JsonNode json = models.json();
        assertThat(json.get("object").asText()).isEqualTo("list");
        JsonNode model = json.get("data").get(0);
        assertThat(model.get("id").asText()).isEqualTo(MODEL);
        assertThat(model.get("object").asText()).isEqualTo("model");
        assertThat(model.get("owned_by").asText()).isEqualTo("servebench-sim");
        assertThat(model.get("max_model_len").asInt()).isEqualTo(4096);
        assertThat(engine.baseUri().getHost()).isEqualTo("127.0.0.1");
        assertThat(engine.model()).isEqualTo(MODEL);
    }

    @Test
    void anApiKeyGuardsTheV1RoutesAsVllmsDoes() throws Exception {
        try (SimulatedEngine guarded = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.VLLM, MODEL,
                List.of("--max-model-len=4096", "--api-key=sk-test")), 0, 7)) {
            assertThat(SimHttp.get(guarded, "/v1/models").status()).isEqualTo(401);
            assertThat(SimHttp.get(guarded, "/v1/models").json().get("error").asText()).isEqualTo("Unauthorized");
            assertThat(SimHttp.get(guarded, "/health").status()).isEqualTo(200);
            assertThat(SimHttp.get(guarded, "/metrics").status()).isEqualTo(200);
            java.net.http.HttpResponse<String> models = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(guarded.baseUri().resolve("/v1/models"))
                            .header("Authorization", "Bearer sk-test").build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(models.statusCode()).isEqualTo(200);
            assertThat(guarded.params().toString()).doesNotContain("sk-test");
            assertThat(guarded.params().ignoredFlags()).isEmpty();
        }
    }

    @Test
    void anEngineStartedToServeKeepsNoGroundTruthSoItsMemoryDoesNotGrowWithWhatItServes() throws Exception {
        try (SimulatedEngine served = SimulatedEngine.start(SimParams.fromFlags(SimDialect.VLLM, MODEL,
                List.of("--max-model-len=4096")), 0, 7)) {
            SimHttp.Reply reply = SimHttp.post(served, "/v1/completions", "kept-1",
                    "{\"model\":\"" + MODEL + "\",\"prompt\":\"Hi\",\"max_tokens\":3,\"min_tokens\":3}");
            assertThat(reply.status()).isEqualTo(200);
            assertThatThrownBy(() -> served.groundTruth("kept-1")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("startRecording");
        }
    }

    @Test
    void chatStreamIsShapedLikeVllmAndHasTheExactLengthAskedFor() {
        SimHttp.Reply reply = SimHttp.post(engine, "/v1/chat/completions", "fmt-1", SimHttp.chat("Hello there, how are you?",
                "\"max_tokens\":12,\"min_tokens\":12,\"stream\":true,\"stream_options\":{\"include_usage\":true}"));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.data()).last().isEqualTo("[DONE]");
        List<JsonNode> events = reply.events();
        JsonNode role = events.get(0);
        assertThat(role.get("id").asText()).isEqualTo("chatcmpl-fmt-1");
        assertThat(role.get("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(role.get("model").asText()).isEqualTo(MODEL);
        assertThat(role.get("created").isIntegralNumber()).isTrue();
        assertThat(role.at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(role.at("/choices/0/delta/content").asText()).isEmpty();
        assertThat(role.at("/choices/0/finish_reason").isNull()).isTrue();

        List<JsonNode> tokens = events.subList(1, events.size() - 1);
        SimTokenizer tokenizer = new SimTokenizer();
        int counted = 0;
        for (JsonNode t : tokens) {
            assertThat(t.at("/choices/0/delta/content").isTextual()).as("content chunk %s", t).isTrue();
            assertThat(t.at("/choices/0/delta").has("role")).isFalse();
            counted += tokenizer.count(t.at("/choices/0/delta/content").asText());
        }
        assertThat(counted).isEqualTo(12);
        assertThat(tokens.get(tokens.size() - 1).at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(tokens.get(0).at("/choices/0/finish_reason").isNull()).isTrue();

        JsonNode usage = events.get(events.size() - 1);
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(12);
        int prompt = usage.at("/usage/prompt_tokens").asInt();
        assertThat(prompt).isEqualTo(tokenizer.count("Hello there, how are you?")
                + ApiRequest.TEMPLATE_TOKENS_PER_MESSAGE + ApiRequest.TEMPLATE_REPLY_TOKENS);
        assertThat(usage.at("/usage/total_tokens").asInt()).isEqualTo(prompt + 12);

        GroundTruth truth = engine.groundTruth("fmt-1").orElseThrow();
        assertThat(truth.events()).hasSize(tokens.size());
        assertThat(truth.completionTokens()).isEqualTo(12);
        assertThat(truth.streamed()).isTrue();
        assertThat(truth.error()).isNull();
        long previous = truth.receivedNs();
        for (SentEvent e : truth.events()) {
            assertThat(e.writtenNs()).isGreaterThanOrEqualTo(previous);
            assertThat(e.tokens()).isPositive();
            previous = e.writtenNs();
        }
        assertThat(truth.events().stream().mapToInt(SentEvent::tokens).sum()).isEqualTo(12);
    }

    @Test
    void withoutIncludeUsageThereIsNoUsageChunk() {
        SimHttp.Reply reply = SimHttp.post(engine, "/v1/chat/completions", "nousage",
                SimHttp.chat("Hi", "\"max_tokens\":3,\"ignore_eos\":true,\"stream\":true"));
        for (JsonNode e : reply.events()) {
            assertThat(e.has("usage")).as("chunk %s", e).isFalse();
            assertThat(e.get("choices")).isNotEmpty();
        }
        assertThat(reply.events()).hasSize(4);
    }

    @Test
    void continuousUsageIsCumulativeOnEveryChunk() {
        SimHttp.Reply reply = SimHttp.post(engine, "/v1/chat/completions", "cont-1", SimHttp.chat("Count with me",
                "\"max_tokens\":9,\"min_tokens\":9,\"stream\":true,"
                        + "\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}"));
        List<JsonNode> events = reply.events();
        int previous = -1;
        for (JsonNode e : events) {
            int completion = e.at("/usage/completion_tokens").asInt(-1);
            assertThat(completion).as("usage on %s", e).isGreaterThanOrEqualTo(Math.max(previous, 0));
            assertThat(e.at("/usage/total_tokens").asInt()).isEqualTo(e.at("/usage/prompt_tokens").asInt() + completion);
            previous = completion;
        }
        assertThat(events.get(0).at("/usage/completion_tokens").asInt()).isZero();
        assertThat(previous).isEqualTo(9);
        // each token chunk adds exactly the tokens of its text
        SimTokenizer tokenizer = new SimTokenizer();
        for (int i = 1; i < events.size() - 1; i++) {
            int added = events.get(i).at("/usage/completion_tokens").asInt() - events.get(i - 1).at("/usage/completion_tokens").asInt();
            assertThat(added).isEqualTo(tokenizer.count(events.get(i).at("/choices/0/delta/content").asText()));
        }
    }

    @Test
    void withoutExactLengthTheAnswerStaysWithinMaxTokens() {
        for (int i = 0; i < 5; i++) {
            SimHttp.Reply reply = SimHttp.post(engine, "/v1/chat/completions", "free-" + i,
                    SimHttp.chat("Tell me something", "\"max_tokens\":40,\"stream\":true,\"stream_options\":{\"include_usage\":true}"));
            List<JsonNode> events = reply.events();
            int n = events.get(events.size() - 1).at("/usage/completion_tokens").asInt();
            assertThat(n).isBetween(1, 40);
            String finish = events.get(events.size() - 2).at("/choices/0/finish_reason").asText();
            assertThat(finish).isEqualTo(n == 40 ? "length" : "stop");
        }
    }

    @Test
    void reasoningParserSendsReasoningContentFirstThenContent() {
        SimHttp.Reply reply = SimHttp.post(reasoningEngine, "/v1/chat/completions", "think-1", SimHttp.chat("Why?",
                "\"max_tokens\":50,\"min_tokens\":50,\"stream\":true"));
        List<JsonNode> tokens = reply.events().subList(1, reply.events().size());
        int reasoning = 0;
        int content = 0;
        SimTokenizer tokenizer = new SimTokenizer();
        for (JsonNode t : tokens) {
            JsonNode delta = t.at("/choices/0/delta");
            assertThat(delta.has("reasoning_content") ^ delta.has("content")).as("one kind per chunk: %s", t).isTrue();
            if (delta.has("reasoning_content")) {
                assertThat(content).as("reasoning after content").isZero();
                reasoning += tokenizer.count(delta.get("reasoning_content").asText());
            } else {
                content += tokenizer.count(delta.get("content").asText());
            }
        }
        assertThat(reasoning + content).isEqualTo(50);
        assertThat(reasoning).isBetween(10, 20);
        GroundTruth truth = reasoningEngine.groundTruth("think-1").orElseThrow();
        assertThat(truth.events().stream().filter(SentEvent::reasoning).mapToInt(SentEvent::tokens).sum())
                .isEqualTo(reasoning);
    }

    @Test
    void completionsApiStreamsTextChunks() {
        SimHttp.Reply reply = SimHttp.post(engine, "/v1/completions", "cmpl-1",
                "{\"prompt\":\"Once upon a time\",\"max_tokens\":5,\"ignore_eos\":true,\"stream\":true}");
        List<JsonNode> events = reply.events();
        assertThat(events).hasSize(5);
        for (JsonNode e : events) {
            assertThat(e.get("object").asText()).isEqualTo("text_completion");
            assertThat(e.at("/choices/0/text").asText()).isNotBlank();
        }
        assertThat(events.get(4).at("/choices/0/finish_reason").asText()).isEqualTo("length");
    }

    @Test
    void tokenizeCountsAPromptAsACompletionsUsageCountsIt() {
        String prompt = "The quick brown fox, it seems, jumps over 3 lazy dogs!";
        SimHttp.Reply counted = SimHttp.post(engine, "/tokenize", "tok-1",
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\",\"add_special_tokens\":false}");
        assertThat(counted.status()).isEqualTo(200);
        assertThat(counted.json().get("max_model_len").asInt()).isEqualTo(4096);
        assertThat(counted.json().get("tokens")).hasSize(counted.json().get("count").asInt());
        SimHttp.Reply completion = SimHttp.post(engine, "/v1/completions", "tok-2",
                "{\"prompt\":\"" + prompt + "\",\"max_tokens\":1}");
        assertThat(counted.json().get("count").asInt()).isEqualTo(completion.json().at("/usage/prompt_tokens").asInt())
                .isEqualTo(new SimTokenizer().count(prompt));
        // a chat's messages count with the template, as a chat request's usage does
        SimHttp.Reply chat = SimHttp.post(engine, "/tokenize", "tok-3", SimHttp.chat(prompt, "\"max_tokens\":1"));
        SimHttp.Reply asked = SimHttp.post(engine, "/v1/chat/completions", "tok-4", SimHttp.chat(prompt, "\"max_tokens\":1"));
        assertThat(chat.json().get("count").asInt()).isEqualTo(asked.json().at("/usage/prompt_tokens").asInt());
        assertThat(SimHttp.post(engine, "/tokenize", "tok-5", "{\"model\":\"other\",\"prompt\":\"x\"}").status())
                .isEqualTo(404);
    }

    @Test
    void nonStreamingResponsesCarryTheWholeAnswerAndUsage() {
        SimHttp.Reply reply = SimHttp.post(reasoningEngine, "/v1/chat/completions", "whole-1",
                SimHttp.chat("Why?", "\"max_tokens\":20,\"min_tokens\":20"));
        assertThat(reply.status()).isEqualTo(200);
        JsonNode json = reply.json();
        assertThat(json.get("object").asText()).isEqualTo("chat.completion");
        SimTokenizer tokenizer = new SimTokenizer();
        JsonNode message = json.at("/choices/0/message");
        assertThat(tokenizer.count(message.get("content").asText()) + tokenizer.count(message.get("reasoning_content").asText()))
                .isEqualTo(20);
        assertThat(json.at("/usage/completion_tokens").asInt()).isEqualTo(20);
        GroundTruth truth = reasoningEngine.groundTruth("whole-1").orElseThrow();
        assertThat(truth.streamed()).isFalse();
        assertThat(truth.completionTokens()).isEqualTo(20);
    }

    @Test
    void badRequestsGet400WithAClearOpenAiStyleError() {
        assertBadRequest("{not json", "not valid JSON");
        assertBadRequest("{\"model\":\"" + MODEL + "\"}", "'messages' is required");
        assertBadRequest(SimHttp.chat("hi", "\"max_tokens\":0"), "max_tokens must be at least 1, got 0");
        assertBadRequest(SimHttp.chat("hi", "\"max_tokens\":4090"), "maximum context length is 4096 tokens");
        assertBadRequest(SimHttp.chat("hi", "\"min_tokens\":5,\"max_tokens\":4"), "min_tokens must be less than or equal to max_tokens");
        assertBadRequest(SimHttp.chat("hi", "\"stream_options\":{\"include_usage\":true}"), "stream=True");
        assertThat(engine.groundTruth("bad").orElseThrow().httpStatus()).isEqualTo(400);
    }

    @Test
    void sglangRefusesAnOverLongRequestWithItsOwnWordsAndItsFlatErrorBody() throws IOException {
        try (SimulatedEngine sglang = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.SGLANG, MODEL,
                List.of("--context-length=4096")), 0, 7)) {
            // "hi" is 1 token plus 4 + 3 of chat template: 8 prompt tokens; 8 + 4088 reaches the context, which
            // SGLang refuses and vLLM (a total over the limit only) would not
            SimHttp.Reply reaches = SimHttp.post(sglang, "/v1/chat/completions", "long", SimHttp.chat("hi", "\"max_tokens\":4088"));
            assertThat(reaches.status()).isEqualTo(400);
            assertThat(reaches.json().get("object").asText()).isEqualTo("error");
            assertThat(reaches.json().get("code").asInt()).isEqualTo(400);
            assertThat(reaches.json().get("message").asText()).isEqualTo("Requested token count exceeds the model's"
                    + " maximum context length of 4096 tokens. You requested a total of 4096 tokens: 8 tokens from the"
                    + " input messages and 4088 tokens for the completion. Please reduce the number of tokens in the"
                    + " input messages or the completion to fit within the limit.");
            SimHttp.Reply fits = SimHttp.post(engine, "/v1/chat/completions", "fits", SimHttp.chat("hi", "\"max_tokens\":4088"));
            assertThat(fits.status()).as("vLLM takes a total of exactly its context").isEqualTo(200);
        }
    }

    @Test
    void unknownPathsAndModelsAre404() {
        assertThat(SimHttp.get(engine, "/v2/nothing").status()).isEqualTo(404);
        SimHttp.Reply wrongModel = SimHttp.post(engine, "/v1/chat/completions", null,
                "{\"model\":\"other\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(wrongModel.status()).isEqualTo(404);
        assertThat(wrongModel.json().at("/error/message").asText()).contains("other");
        assertThat(SimHttp.get(engine, "/v1/chat/completions").status()).isEqualTo(405);
    }

    @Test
    void theSameSeedGivesTheSameAnswer() throws IOException {
        String body = SimHttp.chat("Repeat after me", "\"max_tokens\":30,\"stream\":true");
        String first = SimHttp.post(engine, "/v1/chat/completions", "same", body).body();
        try (SimulatedEngine twin = SimulatedEngine.startRecording(engine.params(), 0, 7);
             SimulatedEngine other = SimulatedEngine.startRecording(engine.params(), 0, 8)) {
            String again = SimHttp.post(twin, "/v1/chat/completions", "same", body).body();
            String different = SimHttp.post(other, "/v1/chat/completions", "same", body).body();
            assertThat(stripCreated(again)).isEqualTo(stripCreated(first));
            assertThat(stripCreated(different)).isNotEqualTo(stripCreated(first));
        }
    }

    @Test
    void closeIsIdempotentAndStopsServing() throws IOException {
        SimulatedEngine e = SimulatedEngine.startRecording(engine.params(), 0, 1);
        assertThat(SimHttp.get(e, "/health").status()).isEqualTo(200);
        e.close();
        e.close();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SimHttp.get(e, "/health"))
                .isInstanceOf(java.io.UncheckedIOException.class);
    }

    private static String stripCreated(String body) {
        return body.replaceAll("\"created\":\\d+", "");
    }

    private static void assertBadRequest(String body, String messagePart) {
        SimHttp.Reply reply = SimHttp.post(engine, "/v1/chat/completions", "bad", body);
        assertThat(reply.status()).as(body).isEqualTo(400);
        JsonNode error = reply.json().get("error");
        assertThat(error.get("type").asText()).isEqualTo("BadRequestError");
        assertThat(error.get("code").asInt()).isEqualTo(400);
        assertThat(error.get("message").asText()).contains(messagePart);
    }
}
