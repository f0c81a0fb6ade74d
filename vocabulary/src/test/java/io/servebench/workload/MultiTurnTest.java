package io.servebench.workload;

import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.List;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code multi-turn:}: each turn carries the whole history before it, and a conversation's turns are drawn together. */
class MultiTurnTest {

    private static final ToIntFunction<String> SIM = new SimTokenizer()::count;

    @Test
    void eachTurnCarriesTheSystemPromptAndEveryEarlierTurnWithItsAnswer() {
        Dataset d = Datasets.resolve("multi-turn:turns=3,in=fixed(20),out=fixed(10),system=30,count=4", SIM);
        List<Conversation> all = d.conversations();
        assertThat(all).hasSize(12).extracting(Conversation::turn).containsExactly(0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2);
        Conversation first = all.get(0);
        Conversation third = all.get(2);
        assertThat(first.context()).extracting(ChatMessage::role).containsExactly("system");
        assertThat(third.context()).extracting(ChatMessage::role)
                .containsExactly("system", "user", "assistant", "user", "assistant");
        // the history is the conversation's own: its earlier prompts, answers of the lengths they asked for
        assertThat(third.context().get(1).content()).isEqualTo(first.prompt());
        assertThat(third.context().get(3).content()).isEqualTo(all.get(1).prompt());
        assertThat(SIM.applyAsInt(third.context().get(2).content())).isEqualTo(first.outputTokens()).isEqualTo(10);
        assertThat(third.promptTokens()).isEqualTo(30 + 2 * (20 + 10) + 20);
        // another conversation has its own system prompt
        assertThat(all.get(3).context().get(0).content()).isNotEqualTo(first.context().get(0).content());
    }

    @Test
    void aConversationsTurnsAreDrawnOneAfterTheOtherInASeededOrderOfConversations() {
        Dataset d = Datasets.resolve("multi-turn:turns=3,in=fixed(5),out=fixed(5),count=5", SIM);
        Iterator<RequestSpec> supply = d.supply(7);
        for (int c = 0; c < 8; c++) {
            RequestSpec t0 = supply.next();
            RequestSpec t1 = supply.next();
            RequestSpec t2 = supply.next();
            assertThat(List.of(t0.turn(), t1.turn(), t2.turn())).as("conversation %d", c).containsExactly(0, 1, 2);
            assertThat(t2.context().get(0).content()).isEqualTo(t0.prompt());
            assertThat(List.of(t0.index(), t1.index(), t2.index())).containsExactly(3 * c, 3 * c + 1, 3 * c + 2);
        }
        assertThat(d.requests(0, 15, 7)).isEqualTo(d.requests(0, 15, 7)).isNotEqualTo(d.requests(0, 15, 8));
    }

    @Test
    void aRateOfConversationsIsCalledSo() {
        assertThat(Datasets.rateUnit("multi-turn:turns=3,in=fixed(5),out=fixed(5)")).isEqualTo("conversations/s");
        assertThat(Datasets.rateUnit("synthetic-sharegpt")).isEqualTo("req/s");
    }

    @Test
    void badSpecsNameWhatWasExpected() {
        assertThat(Datasets.problem("multi-turn:in=fixed(5),out=fixed(5)")).contains("no turns=")
                .contains("expected multi-turn:turns=K,in=DIST,out=DIST[,system=N][,count=N][,seed=S]");
        assertThat(Datasets.problem("multi-turn:turns=0,in=fixed(5),out=fixed(5)")).contains("turns=0 is not a whole number above 0");
        assertThat(Datasets.problem("multi-turn:turns=2,in=fixed(5),out=fixed(5),system=-3"))
                .contains("system=-3 is not a whole number of tokens >= 0");
        assertThatThrownBy(() -> Datasets.resolve("multi-turn:turns=2,in=zipf(5),out=fixed(5)", SIM))
                .hasMessageContaining("zipf(5)");
    }

    @Test
    void aLoadOfAFewConversationsWritesThoseAndTheSameWhateverTheOrder() {
        CallCountingCounter counting = new CallCountingCounter(SIM);
        String spec = "multi-turn:turns=4,in=uniform(20,40),out=fixed(10),system=50,count=200";
        Dataset d = Datasets.resolve(spec, counting, () -> false);
        assertThat(counting.calls()).as("counts before any draw").isZero();
        // the mean of the drawn lengths: turn k's prompt is the system prompt, k earlier turns (user 30 and answer 10
        // on average) and its own message, so 50 + 1.5 x 40 + 30
        assertThat(d.meanPromptTokens()).isBetween(137.0, 143.0);
        assertThat(d.meanOutputTokens()).isEqualTo(10.0);

        d.prepare(7, 12, () -> false);
        int prepared = counting.calls();
        // three conversations (12 turns) are written: a system prompt and four user messages and answers each, every
        // text counted at least twice; not 200 conversations
        assertThat(prepared).isBetween(3 * 9 * 2, 3 * 9 * 8);
        List<RequestSpec> drawn = d.requests(0, 12, 7);
        assertThat(counting.calls()).as("the load's draws write nothing more").isEqualTo(prepared);
        assertThat(drawn).extracting(RequestSpec::turn).containsExactly(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
        assertThat(drawn).allSatisfy(r -> assertThat(r.promptTokens()).isEqualTo(SIM.applyAsInt(r.prompt())
                + r.context().stream().mapToInt(m -> SIM.applyAsInt(m.content())).sum()));

        // the same set written in another order: every conversation the same
        Dataset again = Datasets.resolve(spec, SIM, () -> false);
        again.prepare(99, 800, () -> false);
        assertThat(again.conversations()).isEqualTo(d.conversations());
    }
}
