package io.servebench.workload;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code shared-prefix:}: requests in groups that share a prefix of an exact length. */
class SharedPrefixTest {

    private static final ToIntFunction<String> SIM = new SimTokenizer()::count;

    @Test
    void requestsShareTheirGroupsPrefixAndDifferAfterIt() {
        Dataset d = Datasets.resolve("shared-prefix:groups=4,prefix=200,question=30,out=16,count=40", SIM);
        assertThat(d.conversations()).hasSize(40).allSatisfy(c -> {
            assertThat(c.promptTokens()).isEqualTo(230);
            assertThat(c.outputTokens()).isEqualTo(16);
        });
        Map<String, List<Conversation>> byPrefix = d.conversations().stream()
                .collect(Collectors.groupingBy(c -> String.join(" ", List.of(c.prompt().split(" ")).subList(0, 200))));
        assertThat(byPrefix).hasSize(4).allSatisfy((prefix, members) -> assertThat(members).hasSize(10));
        assertThat(d.conversations().stream().map(Conversation::prompt).distinct()).hasSize(40);
    }

    @Test
    void lengthsMayBeDistributionsAndBadSpecsSayWhatIsMissing() {
        Dataset d = Datasets.resolve("shared-prefix:groups=2,prefix=uniform(100,120),question=fixed(10),out=8,count=6", SIM);
        assertThat(d.conversations()).allSatisfy(c -> assertThat(c.promptTokens()).isBetween(110, 130));
        assertThat(Datasets.problem("shared-prefix:groups=2,prefix=100,out=8")).contains("no question=")
                .contains("e.g. shared-prefix:groups=8,prefix=1024,question=64,out=128");
        assertThat(Datasets.problem("shared-prefix:groups=0,prefix=100,question=5,out=8")).contains("groups=0");
        assertThat(Datasets.problem("shared-prefix:groups=2,prefix=big,question=5,out=8")).contains("prefix=big");
    }

    /** The groups' prefixes are written at once, a request's whole prompt only when a load draws it. */
    @Test
    void aLoadOfAFewRequestsCountsTheirPromptsNotTheWholeSet() {
        java.util.concurrent.atomic.AtomicInteger wholePrompts = new java.util.concurrent.atomic.AtomicInteger();
        ToIntFunction<String> counting = text -> {
            int n = SIM.applyAsInt(text);
            if (n == 2230) {
                wholePrompts.incrementAndGet();
            }
            return n;
        };
        Dataset d = Datasets.resolve("shared-prefix:groups=2,prefix=2000,question=230,out=8,count=1000", counting);
        assertThat(wholePrompts).as("whole prompts counted before any draw").hasValue(0);
        assertThat(d.meanPromptTokens()).isEqualTo(2230);

        d.prepare(3, 10, () -> false);
        assertThat(wholePrompts).as("a load of ten").hasValue(10);
        assertThat(d.requests(0, 10, 3)).allSatisfy(r -> assertThat(SIM.applyAsInt(r.prompt())).isEqualTo(2230));
        assertThat(wholePrompts).as("the load's draws count nothing more").hasValue(10);
    }
}
