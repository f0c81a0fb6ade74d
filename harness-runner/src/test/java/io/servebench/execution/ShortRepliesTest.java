package io.servebench.execution;

import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which replies count as shorter than their request's exact length, and which are not judged. */
class ShortRepliesTest {

    /** A successful record of request {@code id} whose usage counted {@code tokens} output tokens. */
    private static RequestRecord reply(long id, boolean warmup, int tokens, TokenSource source) {
        long[] times = {2_000_000L, 3_000_000L};
        return new RequestRecord(id, warmup, 0, 1_000_000L, times[0], times[0], times[1], times[1] + 1, 10, tokens,
                source, times, new int[] {1, 1}, TokenSource.EVENTS, 1, 0, 200, null);
    }

    private static RequestSpec asking(int index, int tokens) {
        return new RequestSpec(index, "p", 10, tokens, true, false);
    }

    @Test
    void repliesShorterThanTheirExactLengthAreCountedAndTheOthersAreNot() {
        ShortReplies replies = new ShortReplies(false);
        replies.drawn(asking(0, 128));
        replies.drawn(asking(1, 128));
        replies.drawn(asking(2, 64));
        replies.drawn(asking(5000, 16));
        replies.drawn(new RequestSpec(3, "p", 10, 64, false, false));
        replies.drawn(new RequestSpec(4, "p", 10, 64, true, false, List.of(), "{\"ignore_eos\": false}"));
        replies.onComplete(reply(0, false, 128, TokenSource.USAGE));
        replies.onComplete(reply(1, false, 40, TokenSource.USAGE));
        replies.onComplete(reply(2, true, 10, TokenSource.USAGE));      // a warm-up request: not measured
        replies.onComplete(reply(5000, false, 2, TokenSource.EVENTS));  // no count of the server's own
        replies.onComplete(reply(3, false, 10, TokenSource.USAGE));     // did not ask for an exact length
        replies.onComplete(reply(4, false, 10, TokenSource.USAGE));     // its own fields may ask another
        assertThat(replies.note()).hasValueSatisfying(n -> assertThat(n).startsWith("1 of 2 measured requests that asked"
                + " for exactly their reply's length").contains("(40 tokens of the 128 they asked for)"));

        ShortReplies withStudyFields = new ShortReplies(true);
        withStudyFields.drawn(asking(0, 128));
        withStudyFields.onComplete(reply(0, false, 40, TokenSource.USAGE));
        assertThat(withStudyFields.note()).isEmpty();
    }
}
