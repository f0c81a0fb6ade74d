package io.servebench.execution;

import io.servebench.load.LoadListener;
import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.workload.RequestSpec;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The measured requests that asked for exactly their reply length ({@code min_tokens} = {@code max_tokens} and {@code
 * ignore_eos}) and got a shorter one by the server's own count. A server that does not honour those fields ends a reply
 * at the model's own end, so its figures per request are of other lengths than the workload's, and than those of a
 * server that honours them; a reply the engine cut at its context ({@code finish_reason "length"}) is a failure of its
 * own before it gets here. Keeps 4 bytes per request drawn (the length asked for, by the request's index).
 */
final class ShortReplies implements LoadListener {

    /** Whether the load's requests carry extra body fields, which may set the length fields otherwise. */
    private final boolean studyExtraBody;

    /** The {@code max_tokens} each exact request asked for, by its index; 0 for a request that did not ask exactly. */
    private int[] asked = new int[1024];
    private long judged;
    private long shorter;
    private long askedOfShorter;
    private long gotOfShorter;

    /** @param studyExtraBody whether the workload adds body fields to every request ({@code extraBody}) */
    ShortReplies(boolean studyExtraBody) {
        this.studyExtraBody = studyExtraBody;
    }

    /**
     * A request of the load, as it is drawn. One whose body takes extra fields (the workload's or its own) is not
     * judged: they may ask another length, or no exact one.
     */
    synchronized void drawn(RequestSpec spec) {
        if (!spec.exactOutput() || studyExtraBody || spec.extraBody() != null || spec.index() < 0) {
            return;
        }
        if (spec.index() >= asked.length) {
            asked = Arrays.copyOf(asked, Math.max(asked.length * 2, spec.index() + 1));
        }
        asked[spec.index()] = spec.maxTokens();
    }

    @Override
    public synchronized void onComplete(RequestRecord r) {
        if (r.id() < 0 || r.id() >= asked.length || asked[(int) r.id()] == 0 || r.warmup() || !r.succeeded()
                || r.outputTokensSource() != TokenSource.USAGE) {
            return;
        }
        int askedFor = asked[(int) r.id()];
        judged++;
        if (r.outputTokens() < askedFor) {
            shorter++;
            askedOfShorter += askedFor;
            gotOfShorter += r.outputTokens();
        }
    }

    /** What the block's readers must know, when some replies came short; empty when none did. */
    synchronized Optional<String> note() {
        if (shorter == 0) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "%d of %d measured requests that asked for exactly their reply's"
                + " length (min_tokens = max_tokens, ignore_eos) ended sooner, by the server's own count (%d tokens of"
                + " the %d they asked for): the server does not honour those fields, so these replies are the model's"
                + " own length, not the workload's, and figures per request compare with another server's only at the"
                + " same lengths", shorter, judged, gotOfShorter, askedOfShorter));
    }
}
