package io.servebench.execution;

import io.servebench.measure.Metric;
import io.servebench.results.RepetitionResult;

import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Whether a repetition that ran to its end counts, as JMH's {@code -foe} fails a benchmark that threw: one whose measured
 * requests all failed, or more of them than {@code --max-failed-share}, measured a broken server or a wrong workload
 * rather than the configuration, and fails. Cancelled requests (called off on purpose) are no failures and are not
 * counted.
 */
final class RepetitionVerdict {

    /** Error kinds a summary names, most frequent first; the rest are counted together. */
    private static final int KINDS_NAMED = 3;

    private RepetitionVerdict() {
    }

    /**
     * Why the repetition failed, naming its top error kinds with counts and one example; empty when it counts.
     *
     * @param maxFailedShare the largest share of failed measured requests a repetition may have, in {@code [0, 1]}
     */
    static Optional<String> failure(RepetitionResult measured, double maxFailedShare) {
        long ok = Math.round(measured.value(Metric.SUCCESSFUL_REQUESTS).orElse(0));
        long failed = Math.round(measured.value(Metric.FAILED_REQUESTS).orElse(0));
        long total = ok + failed;
        if (failed == 0) {
            return Optional.empty();
        }
        if (ok == 0) {
            return Optional.of("every measured request failed (" + failed + " of " + failed + "): " + errors(measured));
        }
        double share = (double) failed / total;
        if (share <= maxFailedShare) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "%d of %d measured requests failed (%.1f%%, more than"
                + " --max-failed-share %s): %s", failed, total, 100 * share, share(maxFailedShare), errors(measured)));
    }

    /**
     * The repetition's failed requests by kind, most frequent first, with the first one's error of the most frequent
     * kind: {@code http_404 ×20, e.g. "http_404: {\"error\": ...}"}; empty when none failed.
     */
    static String errors(RepetitionResult measured) {
        Map<String, Long> kinds = measured.errorKinds();
        if (kinds.isEmpty()) {
            return "";
        }
        var byCount = kinds.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
                .toList();
        String named = byCount.stream().limit(KINDS_NAMED).map(e -> e.getKey() + " ×" + e.getValue())
                .collect(Collectors.joining(", "));
        long others = byCount.stream().skip(KINDS_NAMED).mapToLong(Map.Entry::getValue).sum();
        String example = measured.errorExamples().get(byCount.get(0).getKey());
        return named + (others > 0 ? ", " + others + " of other kinds" : "")
                + (example == null ? "" : ", e.g. \"" + example + "\"") + hint(byCount.get(0).getKey(), example);
    }

    /**
     * What to do about the most frequent error, where ServeBench's own request is what the server refused: a 400 that
     * names {@code min_tokens} or {@code ignore_eos}, which a server checking the OpenAI schema does not take; or one
     * saying the request's prompt and reply are more than the server's context holds, in vLLM's words ("... This model's
     * maximum context length is 600 tokens and your request has ...", {@code vllm/entrypoints/openai/engine/serving.py};
     * older versions wrote "However, you requested ...") or SGLang's ("The input (N tokens) is longer than the model's context length
     * (M tokens).", "Requested token count exceeds the model's maximum context length of M tokens.").
     */
    private static String hint(String kind, String example) {
        if (example == null || !kind.equals("http_400")) {
            return "";
        }
        if (example.contains("min_tokens") || example.contains("ignore_eos")) {
            return "; the server refuses the exact reply length ServeBench asks for (min_tokens, ignore_eos): -p"
                    + " exactOutput=false sends max_tokens alone";
        }
        Matcher context = CONTEXT.matcher(example);
        if (context.find()) {
            String tokens = context.group(1) != null ? context.group(1) : context.group(2);
            return "; the server's context holds " + tokens + " tokens, fewer than these requests' prompt and reply:"
                    + " serve a longer context (@ServerOptions(maxModelLen), vLLM's --max-model-len, SGLang's"
                    + " --context-length) or draw requests that fit it (sharegpt:PATH,maxTotal=" + tokens
                    + ", or synthetic:in=N,out=N)";
        }
        return "";
    }

    /** A server's words for a request longer than its context, with the context's length in tokens. */
    private static final Pattern CONTEXT = Pattern.compile(
            "maximum context length (?:is|of) (\\d+) tokens|longer than the model's context length \\((\\d+) tokens");

    private static String share(double share) {
        return new java.math.BigDecimal(Double.toString(share)).stripTrailingZeros().toPlainString();
    }
}
