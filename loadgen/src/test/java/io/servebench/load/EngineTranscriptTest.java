package io.servebench.load;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load client's reading of what vLLM and SGLang really stream: {@code engine-transcripts/*.sse} are recordings
 * published in the engines' issues and users' write-ups, each file naming its source, engine version and what was cut
 * (two, named {@code .from-source.sse}, are built from the engine's source where no recording was found, which the
 * file says). Each is parsed as the client parses a response, one network read per event, into the request's record.
 */
class EngineTranscriptTest {

    /** A response read from a transcript: its record, and the accumulator for what the record leaves out. */
    private record Read(RequestRecord record, StreamAccumulator accumulator) {
    }

    /** Counts a text's characters, so that a token event counted twice (both reasoning fields) would show. */
    private static final DeltaTokenCounter CHARACTERS = DeltaTokenCounter.of(String::length);

    private static Read read(String transcript) throws IOException {
        byte[] bytes;
        try (InputStream in = EngineTranscriptTest.class.getResourceAsStream("/engine-transcripts/" + transcript)) {
            assertThat(in).as(transcript).isNotNull();
            bytes = in.readAllBytes();
        }
        StreamAccumulator accumulator = new StreamAccumulator(CHARACTERS);
        SseParser parser = new SseParser();
        long ns = 1_000;
        // one read per line, the source's comment lines included: each event is stamped with the read that ended it
        for (String line : lines(bytes)) {
            accumulator.beginRead(ns);
            byte[] chunk = line.getBytes(StandardCharsets.UTF_8);
            parser.feed(chunk, 0, chunk.length, accumulator);
            ns += 1_000;
        }
        return new Read(accumulator.toRecord(0, false, 0, 0, ns, 7, 200, null), accumulator);
    }

    private static List<String> lines(byte[] bytes) {
        List<String> lines = new ArrayList<>();
        String text = new String(bytes, StandardCharsets.UTF_8);
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lines.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    @Test
    void vllmChatContentAfterAnEmptyRoleChunk() throws IOException {
        // vLLM 0.8.5.post1 (vllm#19650): the role chunk's "content":"" is no token
        Read r = read("vllm-chat-basic.sse");
        assertThat(r.record().eventTokens()).containsExactly(1, 1);
        assertThat(r.record().firstContentNs()).isEqualTo(r.record().firstTokenNs());
        assertThat(r.accumulator().error()).isNull();
        // vLLM 0.9.0: content chunks without finish_reason and logprobs keys, with "tool_calls":[]
        assertThat(read("vllm-chat-basic-v0.9.0.sse").record().eventTokens()).containsExactly(1, 1);
    }

    @Test
    void vllmReasoningUnderEitherNameCountsOncePerEventAndIsNoContent() throws IOException {
        // late 2025 (vllm#29408): each delta carries "reasoning" and "reasoning_content" with the same text
        Read both = read("vllm-chat-reasoning.sse");
        assertThat(both.record().eventTokens()).containsExactly(2, 1, 2);
        assertThat(both.record().firstTokenNs()).isNotEqualTo(RequestRecord.NONE);
        assertThat(both.record().firstContentNs()).isEqualTo(RequestRecord.NONE);
        // vLLM 0.17.0 (vllm-ascend#10940): "reasoning" only
        Read only = read("vllm-chat-reasoning-v0.17.sse");
        assertThat(only.record().eventTokens()).containsExactly(8, 8);
        assertThat(only.record().firstContentNs()).isEqualTo(RequestRecord.NONE);
    }

    @Test
    void continuousUsageStatsGiveEachEventsTokensAndThePromptLength() throws IOException {
        // vllm-omni PR #2313: usage on every chunk, the role chunk's completion_tokens 0
        RequestRecord r = read("vllm-chat-continuous-usage.sse").record();
        assertThat(r.eventTokens()).containsExactly(1);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.CONTINUOUS_USAGE);
        assertThat(r.promptTokens()).isEqualTo(15);
        assertThat(r.outputTokens()).isEqualTo(1);
    }

    @Test
    void aLengthCutEndsWithItsLastTokenInTheFinishChunk() throws IOException {
        // a vLLM text-completion stream, recorded whole (xiguiwang/agent-examples, vLLM_setup.md)
        Read r = read("vllm-completions-length.sse");
        assertThat(r.record().eventTokens()).hasSize(7);
        assertThat(r.accumulator().finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(r.accumulator().sawDone()).isTrue();
        assertThat(r.record().succeeded()).isTrue();
        assertThat(r.record().outputTokens()).isEqualTo(" city in the state of California,".length());
    }

    @Test
    void sglangChunksWithEveryKeyNullReadAsContent() throws IOException {
        // SGLang 0.4.4.post1 (sglang#4550): role, reasoning_content, tool_calls, matched_stop and usage all null
        Read r = read("sglang-chat-basic.sse");
        assertThat(r.record().eventTokens()).containsExactly(2, 2);
        assertThat(r.record().promptTokens()).isEqualTo(7);
        assertThat(r.accumulator().error()).isNull();
    }

    @Test
    void anErrorEventFailsTheRequestWithTheEnginesMessage() throws IOException {
        // SGLang behind LiteLLM (litellm#25492): HTTP 200, then an error object and [DONE]
        Read sglang = read("sglang-chat-error.sse");
        assertThat(sglang.record().succeeded()).isFalse();
        assertThat(sglang.accumulator().error()).contains("maximum context length of 196608 tokens");
        assertThat(sglang.record().eventTokens()).isEmpty();
        // vLLM's streaming error response (serving.py create_streaming_error_response), from its source
        Read vllm = read("vllm-chat-error.from-source.sse");
        assertThat(vllm.record().succeeded()).isFalse();
        assertThat(vllm.accumulator().error()).contains("Internal server error");
    }

    @Test
    void sglangsAbortIsAFailureNotAShortAnswer() throws IOException {
        // SGLang's serving_chat.py finish chunk for an abort without a status code, from its source
        Read r = read("sglang-chat-abort.from-source.sse");
        assertThat(r.accumulator().finishReason()).isEqualTo(FinishReason.ABORT);
        assertThat(r.record().succeeded()).isFalse();
        assertThat(r.record().errorKind()).isEqualTo("aborted");
    }
}
