package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordReader;
import io.servebench.load.TokenSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without continuous usage, a dataset's tokenizer counts each streamed event's tokens: against the simulated engine,
 * whose tokens are words, a whitespace word-level tokenizer must find every token the server sent, events of several
 * tokens (accepted MTP drafts) included.
 */
class TokenizerPerEventTest {

    @Test
    void eachEventsTokensAreCountedWithTheDatasetsTokenizer(@TempDir Path dir) throws Exception {
        Path tokenizer = dir.resolve("tokenizer.json");
        Files.writeString(tokenizer, """
                {"version": "1.0", "truncation": null, "padding": null,
                 "added_tokens": [{"id": 0, "content": "[UNK]", "single_word": false, "lstrip": false, "rstrip": false,
                                   "normalized": false, "special": true}],
                 "normalizer": null, "pre_tokenizer": {"type": "WhitespaceSplit"}, "post_processor": null, "decoder": null,
                 "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
                """);
        Path out = dir.resolve("run");
        new Runner(RunOptions.builder().include(SimStudy.class, "mtp2").param("rate", "8").param("requests", "12")
                .param("warmup", "0").param("continuousUsage", "false")
                .param("dataset", "synthetic:in=fixed(40),out=fixed(30),count=12,tokenizer=" + tokenizer)
                .simulate(EngineParams.Simulate.IN_PROCESS).settle(java.time.Duration.ZERO).outputDir(out).progress(false)
                .build(), new PrintWriter(new StringWriter(), true)).run();
        Path requests;
        try (var files = Files.list(out.resolve("requests"))) {
            requests = files.findFirst().orElseThrow();
        }
        List<RequestRecord> records = RequestRecordReader.read(requests);
        assertThat(records).hasSize(12).allSatisfy(r -> {
            assertThat(r.succeeded()).isTrue();
            assertThat(r.eventTokensSource()).isEqualTo(TokenSource.TOKENIZER);
            assertThat(Arrays.stream(r.eventTokens()).sum()).as("tokens in the events, by the tokenizer")
                    .isEqualTo(r.outputTokens());
        });
        assertThat(records.stream().flatMapToInt(r -> Arrays.stream(r.eventTokens())).max().orElse(0))
                .as("an event carrying an accepted draft").isGreaterThan(1);
    }
}
