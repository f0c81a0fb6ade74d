package io.servebench.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The dataset kinds beside ShareGPT: synthetic lengths, JSON lines, and how a spec names them. */
class DatasetKindsTest {

    private static final ToIntFunction<String> SIM = new SimTokenizer()::count;

    @Test
    void syntheticPromptsHaveExactlyTheirDrawnLengthByTheTokenizer() {
        Dataset d = Datasets.resolve("synthetic:in=fixed(100),out=fixed(50),count=20", SIM);
        assertThat(d.conversations()).hasSize(20).allSatisfy(c -> {
            assertThat(c.promptTokens()).isEqualTo(100);
            assertThat(SIM.applyAsInt(c.prompt())).isEqualTo(100);
            assertThat(c.outputTokens()).isEqualTo(50);
        });
        // a bare length is a fixed one, as vllm bench serve's --random-input-len takes it
        assertThat(Datasets.resolve("synthetic:in=100,out=50,count=5", SIM).conversations())
                .isEqualTo(Datasets.resolve("synthetic:in=fixed(100),out=fixed(50),count=5", SIM).conversations());
        // a counter that reads every word as two tokens gets prompts of half as many words, still exactly 100 tokens
        ToIntFunction<String> twoPerWord = text -> 2 * text.split(" ").length;
        assertThat(Datasets.resolve("synthetic:in=fixed(100),out=fixed(50),count=5", twoPerWord).conversations())
                .allSatisfy(c -> assertThat(c.prompt().split(" ")).hasSize(50));
    }

    @Test
    void distributionsStayInTheirRangeAndTheSeedGivesTheSameSet() {
        Dataset uniform = Datasets.resolve("synthetic:in=uniform(64,256),out=normal(200,20),count=500", SIM);
        assertThat(uniform.conversations()).allSatisfy(c -> assertThat(c.promptTokens()).isBetween(64, 256));
        assertThat(uniform.meanPromptTokens()).isBetween(150.0, 170.0);
        assertThat(uniform.meanOutputTokens()).isBetween(195.0, 205.0);
        Dataset lognormal = Datasets.resolve("synthetic:in=lognormal(300,0.8),out=fixed(10),count=500", SIM);
        List<Integer> sorted = lognormal.conversations().stream().map(Conversation::promptTokens).sorted().toList();
        assertThat(sorted.get(250)).as("median").isBetween(270, 330);
        assertThat(lognormal.meanPromptTokens()).as("a long right tail: mean above median").isGreaterThan(sorted.get(250));

        String spec = "synthetic:in=uniform(10,20),out=fixed(5),count=30,seed=7";
        assertThat(Datasets.resolve(spec, SIM).conversations()).isEqualTo(Datasets.resolve(spec, SIM).conversations());
        assertThat(Datasets.resolve(spec.replace("seed=7", "seed=8"), SIM).conversations())
                .isNotEqualTo(Datasets.resolve(spec, SIM).conversations());
    }

    @Test
    void badSyntheticSpecsSayWhatWasExpected() {
        assertThat(Datasets.problem("synthetic:in=gauss(3),out=fixed(5)")).contains("in=gauss(3)")
                .contains("expected n or fixed(n), uniform(a,b), normal(mu,sigma) or lognormal(median,sigma)");
        assertThat(Datasets.problem("synthetic:in=0,out=5")).contains("in=0").contains("at least 1");
        assertThat(Datasets.problem("synthetic:in=1.5,out=5")).contains("in=1.5").contains("expected n or fixed(n)");
        assertThat(Datasets.problem("synthetic:in=uniform(5),out=fixed(5)")).contains("uniform takes two numbers");
        assertThat(Datasets.problem("synthetic:in=uniform(9,3),out=fixed(5)")).contains("1 <= a <= b");
        assertThat(Datasets.problem("synthetic:in=fixed(0),out=fixed(5)")).contains("at least 1");
        assertThat(Datasets.problem("synthetic:in=fixed(5)")).contains("no out=DIST");
        assertThat(Datasets.problem("synthetic:in=fixed(5),out=fixed(5),size=3")).contains("option \"size=3\"")
                .contains("[in, out, count, seed]");
        assertThat(Datasets.problem("synthetic:in=fixed(5),out=fixed(5),count=0")).contains("count=0 is not a whole number above 0");
        assertThat(Datasets.problem("synthetic:")).contains("expected in=DIST,out=DIST");
        assertThat(Datasets.problem("synthetic:in=fixed(5),out=fixed(5)")).isNull();
    }

    @Test
    void jsonLinesReadOneRequestPerLineAndBadLinesNameTheirNumber(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("requests.jsonl");
        Files.writeString(file, """
                {"prompt": "what is the tallest mountain on earth", "output_tokens": 12}

                {"prompt": "and the second tallest", "temperature": 0}
                """);
        Dataset d = Datasets.resolve("jsonl:" + file + ",out=64", SIM);
        assertThat(d.conversations()).extracting(Conversation::outputTokens).containsExactly(12, 64);
        assertThat(d.conversations().get(0).promptTokens()).isEqualTo(SIM.applyAsInt("what is the tallest mountain on earth"));
        assertThatThrownBy(() -> Datasets.resolve("jsonl:" + file, SIM)).hasMessageContaining("line 3")
                .hasMessageContaining("no /output_tokens").hasMessageContaining(",out=256");

        // file, line and column, what was expected, in ServeBench's words: no parser internals
        assertThatThrownBy(() -> jsonl(dir, "{\"prompt\": \"a\"}\n{\"prompt\": \n")).hasMessageContaining("line 2, column")
                .hasMessageContaining("is not JSON: unexpected end-of-input")
                .hasMessageContaining("expected one JSON object {\"prompt\"").hasMessageNotContaining("Source")
                .hasMessageNotContaining("StreamReadFeature");
        assertThatThrownBy(() -> jsonl(dir, "{\"text\": \"a\"}\n")).hasMessageContaining("line 1: /prompt is missing");
        assertThatThrownBy(() -> jsonl(dir, "{\"prompt\": \"a\", \"output_tokens\": -3}\n"))
                .hasMessageContaining("/output_tokens is -3; expected a whole number above 0");
        assertThatThrownBy(() -> jsonl(dir, "{\"messages\": []}\n")).hasMessageContaining("/messages is not a non-empty array");
        assertThatThrownBy(() -> jsonl(dir, "{\"messages\": [{\"role\": \"user\", \"content\": \"a\"},"
                + " {\"role\": \"assistant\", \"content\": \"b\"}]}\n")).hasMessageContaining("/messages/1 is the assistant's")
                .hasMessageContaining("end with the user's turn");
        assertThatThrownBy(() -> jsonl(dir, "{\"messages\": [{\"role\": \"bot\", \"content\": \"a\"}]}\n"))
                .hasMessageContaining("/messages/0/role is \"bot\"");
        assertThatThrownBy(() -> jsonl(dir, "{\"prompt\": \"a\", \"messages\": [{\"role\": \"user\", \"content\": \"a\"}]}\n"))
                .hasMessageContaining("both /prompt and /messages");
        assertThatThrownBy(() -> jsonl(dir, "[1, 2]\n")).hasMessageContaining("expected a JSON object");
        assertThatThrownBy(() -> jsonl(dir, "\n\n")).hasMessageContaining("has no request");
        assertThatThrownBy(() -> Datasets.resolve("jsonl:" + dir.resolve("missing.jsonl"), SIM))
                .hasMessageContaining("missing.jsonl").hasMessageContaining("does not exist");
        assertThat(Datasets.problem("jsonl:")).contains("no file after jsonl:");
        assertThat(Datasets.problem("jsonl:x.jsonl,out=1,max=3")).contains("option \"max=3\"");
    }

    private static Dataset jsonl(Path dir, String text) throws IOException {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(file, text);
        return Datasets.resolve("jsonl:" + file + ",out=8", SIM);
    }

    @Test
    void anUnknownKindListsTheKnownOnesAndAListOfSpecsSplitsAtKinds() {
        // a file's path alone: the kinds that read it are named before it
        assertThat(Datasets.problem("requests.jsonl")).startsWith("unknown dataset \"requests.jsonl\": a file is read by"
                + " the kind named before its path: jsonl:requests.jsonl (one request per line) or trace:requests.jsonl");
        assertThat(Datasets.problem("data/ShareGPT_V3.json")).contains("sharegpt:data/ShareGPT_V3.json (a ShareGPT-format"
                + " file); expected one of");
        // the names other load generators give made-up prompts: the same dataset here, in a form that reads
        assertThat(Datasets.problem("random:input=1024,output=256")).contains("vllm bench serve's random dataset"
                + " (--random-input-len I --random-output-len O) is synthetic:in=fixed(I),out=fixed(O) here");
        assertThat(Datasets.problem("prompt_tokens=256,output_tokens=128")).contains("guidellm's"
                + " prompt_tokens=I,output_tokens=O is synthetic:in=fixed(I),out=fixed(O) here");
        assertThat(Datasets.problem("synthetic:in=fixed(1024),out=fixed(256)")).isNull();
        assertThat(Datasets.problem("synthetic:in=uniform(512,1536),out=uniform(128,384)")).isNull();
        assertThat(Datasets.problem("replay:x.jsonl")).startsWith("unknown dataset \"replay:x.jsonl\": expected one of")
                .contains("\"sharegpt:PATH[,minTokens=N][,maxPrompt=N][,maxTotal=N]\"").contains("\"jsonl:PATH[,out=N]\"")
                .contains("\"shared-prefix:groups=G,prefix=P,question=Q,out=O[,count=N][,seed=S]\"")
                .contains("\"synthetic:in=DIST,out=DIST[,count=N][,seed=S]\"").contains("\"synthetic-sharegpt\"")
                .contains("\"trace:PATH[,timeScale=X][,blockSize=N]\"");
        assertThat(Datasets.problem("sharegpt")).contains("no file after sharegpt:").contains("expected sharegpt:PATH");
        assertThat(Datasets.problem("sharegpt:a.json,maxPromt=9")).contains("option \"maxPromt=9\"")
                .contains("[minTokens, maxPrompt, maxTotal]");
        assertThat(Datasets.splitList("sharegpt:a.json,synthetic-sharegpt")).containsExactly("sharegpt:a.json",
                "synthetic-sharegpt");
        assertThat(Datasets.splitList("synthetic:in=uniform(1,9),out=fixed(2),jsonl:x.jsonl,out=3"))
                .containsExactly("synthetic:in=uniform(1,9),out=fixed(2)", "jsonl:x.jsonl,out=3");
    }

    @Test
    void shareGptFiltersAreTheSpecsAndAnEmptyResultCountsWhatEachFilterLeftOut(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("s.json");
        String words = "one two three four five six seven eight nine ten";
        Files.writeString(file, "[" + String.join(",",
                conversation(words, words),                      // 10 + 10
                conversation(words + " " + words, "a b c d e"),  // 20 + 5
                conversation("a b", words),                      // a short prompt
                "{\"conversations\": [{\"from\": \"human\", \"value\": \"" + words + "\"}]}") + "]");
        assertThat(Datasets.resolve("sharegpt:" + file, SIM).conversations()).hasSize(2);
        assertThat(Datasets.resolve("sharegpt:" + file + ",maxPrompt=15", SIM).conversations()).hasSize(1);
        assertThat(Datasets.resolve("sharegpt:" + file + ",minTokens=2,maxTotal=22", SIM).conversations()).hasSize(2);
        assertThatThrownBy(() -> Datasets.resolve("sharegpt:" + file + ",minTokens=30", SIM))
                .hasMessageContaining("no conversation left after the filters (1 with fewer than two turns,"
                        + " 3 with a prompt under 30 tokens, 0 with a reply under 30 tokens, 0 with a prompt over 1024 tokens,"
                        + " 0 over 2048 tokens in all)");
        Files.writeString(file, "[{\"conversations\": [{\"from\": \"human\", \"value\": 7}, {\"value\": \"x\"}]}]");
        assertThatThrownBy(() -> Datasets.resolve("sharegpt:" + file, SIM)).hasMessageContaining("(/0/conversations/0/value)")
                .hasMessageContaining("expected a string, found NUMBER");
    }

    private static String conversation(String prompt, String reply) {
        return "{\"conversations\": [{\"from\": \"human\", \"value\": \"" + prompt + "\"}, {\"from\": \"gpt\", \"value\": \""
                + reply + "\"}]}";
    }

    @Test
    void aJsonLineMayBeAChatWhoseLastTurnIsTheUsers(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("chats.jsonl");
        Files.writeString(file, "{\"messages\": [{\"role\": \"system\", \"content\": \"you answer briefly\"},"
                + " {\"role\": \"user\", \"content\": \"what is a token\"}, {\"role\": \"assistant\", \"content\": \"a piece of text\"},"
                + " {\"role\": \"user\", \"content\": \"and a prefix\"}], \"output_tokens\": 20}\n");
        Conversation c = Datasets.resolve("jsonl:" + file, SIM).conversations().get(0);
        assertThat(c.prompt()).isEqualTo("and a prefix");
        assertThat(c.context()).extracting(ChatMessage::role).containsExactly("system", "user", "assistant");
        assertThat(c.promptTokens()).isEqualTo(SIM.applyAsInt("you answer briefly") + SIM.applyAsInt("what is a token")
                + SIM.applyAsInt("a piece of text") + SIM.applyAsInt("and a prefix"));
        RequestSpec spec = Datasets.resolve("jsonl:" + file, SIM).requests(0, 1, 1).get(0);
        assertThat(spec.context()).isEqualTo(c.context());
    }

    @Test
    void aJsonLinesOtherFieldsGoIntoItsRequestsBody(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("sampled.jsonl");
        Files.writeString(file, "{\"prompt\": \"hello there\", \"output_tokens\": 8, \"temperature\": 0.7,"
                + " \"response_format\": {\"type\": \"json_object\"}}\n{\"prompt\": \"plain\", \"output_tokens\": 4}\n");
        List<Conversation> c = Datasets.resolve("jsonl:" + file, SIM).conversations();
        assertThat(c.get(0).extraBody()).isEqualTo("{\"temperature\":0.7,\"response_format\":{\"type\":\"json_object\"}}");
        assertThat(c.get(1).extraBody()).isNull();
        assertThat(Datasets.resolve("jsonl:" + file, SIM).requests(0, 2, 1)).extracting(RequestSpec::extraBody)
                .containsExactlyInAnyOrder(c.get(0).extraBody(), null);

        Path length = Files.writeString(dir.resolve("length.jsonl"), "{\"prompt\": \"x\", \"max_tokens\": 8}\n");
        assertThatThrownBy(() -> Datasets.resolve("jsonl:" + length + ",out=4", SIM))
                .hasMessageContaining(length + " line 1: /max_tokens sets the reply length, which is /output_tokens");
        Path reserved = Files.writeString(dir.resolve("reserved.jsonl"), "{\"prompt\": \"x\", \"stream\": false}\n");
        assertThatThrownBy(() -> Datasets.resolve("jsonl:" + reserved + ",out=4", SIM))
                .hasMessageContaining(reserved + " line 1: the fields besides prompt, messages and output_tokens go into the"
                        + " request body, but they set [stream], which the client controls");
    }
}
