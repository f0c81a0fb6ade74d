package io.servebench.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code trace:}: Mooncake-style lines become requests in file order, with their times, lengths and shared blocks. */
class TraceFileTest {

    private static final ToIntFunction<String> SIM = new SimTokenizer()::count;

    private static Path trace(Path dir, String... lines) throws IOException {
        Path file = dir.resolve("trace.jsonl");
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    @Test
    void linesBecomeRequestsInFileOrderAtTheirScaledTimesWithTheirLengths(@TempDir Path dir) throws IOException {
        Path file = trace(dir,
                "{\"timestamp\": 1000, \"input_length\": 40, \"output_length\": 7, \"hash_ids\": [1, 2, 3]}",
                "{\"timestamp\": 1250, \"input_length\": 20, \"output_length\": 3, \"hash_ids\": [1, 2]}",
                "",
                "{\"timestamp\": 1250, \"input_length\": 30, \"output_length\": 5}",
                "{\"timestamp\": 4000, \"input_length\": 50, \"output_length\": 9, \"hash_ids\": [9]}");

        Dataset d = Datasets.resolve("trace:" + file + ",timeScale=0.5,blockSize=16", SIM);

        // milliseconds after the first line, halved
        assertThat(d.arrivalsNs()).hasValueSatisfying(a -> assertThat(a).containsExactly(0, 125_000_000, 125_000_000,
                1_500_000_000));
        Iterator<RequestSpec> supply = d.supply(1);
        List<RequestSpec> requests = List.of(supply.next(), supply.next(), supply.next(), supply.next());
        assertThat(supply.hasNext()).as("a trace is sent once").isFalse();
        // the seed does not reorder a trace
        assertThat(d.requests(0, 10, 99)).isEqualTo(d.requests(0, 10, 1)).hasSize(4);
        assertThat(requests).extracting(RequestSpec::maxTokens).containsExactly(7, 3, 5, 9);
        assertThat(requests).extracting(r -> SIM.applyAsInt(r.prompt())).containsExactly(40, 20, 30, 50);
        assertThat(requests).extracting(RequestSpec::promptTokens).containsExactly(40, 20, 30, 50);
        assertThat(d.meanPromptTokens()).isEqualTo(35);
    }

    @Test
    void requestsThatShareHashIdsShareThoseBlocksAndNoMore(@TempDir Path dir) throws IOException {
        Path file = trace(dir,
                "{\"timestamp\": 0, \"input_length\": 48, \"output_length\": 1, \"hash_ids\": [1, 2, 3]}",
                "{\"timestamp\": 1, \"input_length\": 40, \"output_length\": 1, \"hash_ids\": [1, 2, 4]}",
                "{\"timestamp\": 2, \"input_length\": 48, \"output_length\": 1, \"hash_ids\": [5, 2, 3]}");
        List<String> words = Datasets.resolve("trace:" + file + ",blockSize=16", SIM).conversations().stream()
                .map(c -> c.prompt()).toList();
        List<String> a = List.of(words.get(0).split(" "));
        List<String> b = List.of(words.get(1).split(" "));
        List<String> c = List.of(words.get(2).split(" "));
        // blocks 1 and 2: the first 32 tokens (one word each with this tokenizer) are the same, the third block differs
        assertThat(b.subList(0, 32)).isEqualTo(a.subList(0, 32));
        assertThat(b.subList(32, 40)).isNotEqualTo(a.subList(32, 40));
        // a different first block: the prompt shares no prefix, though its later blocks are the same text
        assertThat(c.subList(0, 16)).isNotEqualTo(a.subList(0, 16));
        assertThat(c.subList(16, 48)).isEqualTo(a.subList(16, 48));
    }

    @Test
    void anInputLongerThanItsBlocksGetsTextOfItsOwnForTheRest(@TempDir Path dir) throws IOException {
        Path file = trace(dir,
                "{\"timestamp\": 0, \"input_length\": 24, \"output_length\": 1, \"hash_ids\": [1]}",
                "{\"timestamp\": 0, \"input_length\": 24, \"output_length\": 1, \"hash_ids\": [1]}");
        List<Conversation> c = Datasets.resolve("trace:" + file + ",blockSize=16", SIM).conversations();
        assertThat(c).allSatisfy(x -> assertThat(x.promptTokens()).isEqualTo(24));
        assertThat(c.get(0).prompt()).isNotEqualTo(c.get(1).prompt());
        assertThat(c.get(0).prompt().substring(0, 40)).isEqualTo(c.get(1).prompt().substring(0, 40));
    }

    @Test
    void badTracesAreRefusedNamingTheLineAndWhatWasExpected(@TempDir Path dir) throws IOException {
        Path backwards = trace(dir, "{\"timestamp\": 500, \"input_length\": 4, \"output_length\": 1}",
                "{\"timestamp\": 499, \"input_length\": 4, \"output_length\": 1}");
        assertThatThrownBy(() -> Datasets.resolve("trace:" + backwards, SIM))
                .hasMessageContaining(backwards + " line 2: /timestamp 499 is before line 1's 500")
                .hasMessageContaining("expected the lines in time order");

        Path noLength = Files.writeString(dir.resolve("b.jsonl"), "{\"timestamp\": 1, \"output_length\": 1}\n");
        assertThatThrownBy(() -> Datasets.resolve("trace:" + noLength, SIM))
                .hasMessageContaining(noLength + " line 1: no /input_length");
        Path badId = Files.writeString(dir.resolve("c.jsonl"),
                "{\"timestamp\": 1, \"input_length\": 3, \"output_length\": 1, \"hash_ids\": [1, \"x\"]}\n");
        assertThatThrownBy(() -> Datasets.resolve("trace:" + badId, SIM))
                .hasMessageContaining(badId + " line 1: /hash_ids/1 is \"x\"; expected a whole number");
        Path notJson = Files.writeString(dir.resolve("d.jsonl"), "{\"timestamp\": 1,\n");
        assertThatThrownBy(() -> Datasets.resolve("trace:" + notJson, SIM)).hasMessageContaining(notJson + " line 1, column");
        assertThatThrownBy(() -> Datasets.resolve("trace:" + dir.resolve("none.jsonl"), SIM))
                .hasMessageContaining("none.jsonl does not exist");

        assertThat(Datasets.problem("trace:x.jsonl,timeScale=0")).contains("timeScale=0 is not a number above 0")
                .contains("expected trace:PATH[,timeScale=X][,blockSize=N]");
        assertThat(Datasets.problem("trace:x.jsonl,speed=2")).contains("option \"speed=2\"");
        assertThat(Datasets.problem("trace:")).contains("no file after trace:");
    }
}
