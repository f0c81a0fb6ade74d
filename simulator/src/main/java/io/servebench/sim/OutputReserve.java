package io.servebench.sim;

import java.util.List;

/**
 * SGLang's admission rule: a waiting request joins only if the KV pool, less what the running requests are expected to
 * still generate, holds its prompt and its whole {@code max_tokens}. vLLM admits whatever prompt chunk fits and
 * preempts when the pool runs out; SGLang reserves room for outputs up front, so at saturation it runs fewer requests at
 * once, and decodes them without the preemptions that admitting more would bring.
 *
 * <p>From SGLang's {@code managers/schedule_policy.py} ({@code PrefillAdder}: {@code add_one_req},
 * {@code _get_running_request_total_token_offset}, {@code _update_prefill_budget}), {@code managers/scheduler.py}
 * ({@code update_running_batch}) and {@code scheduler_components/new_token_ratio_tracker.py}, read at
 * bytedance-iaas/sglang@6ed5780c4f (a fork tracking sgl-project/sglang; the rule is the same upstream):
 * <ul>
 *   <li>a request is admitted when {@code extend + min(max_new, 4096) + page < available - sum over the running of
 *       min(max_new - generated, 4096) * ratio - what this step admitted already} (each admission counts its prompt,
 *       its whole {@code min(max_new, 4096)} and a page);</li>
 *   <li>{@code ratio} starts at 0.7 ({@code SGLANG_INIT_NEW_TOKEN_RATIO} times {@code --schedule-conservativeness} 1.0),
 *       falls by {@code (0.7 - 0.098) / 600} with every decode step that needed no retraction, down to 0.098 (0.7 times
 *       {@code SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR} 0.14), and starts again at 0.7 when the engine idles;</li>
 *   <li>when a decode step had to retract requests, {@code ratio} becomes {@code (generated + 20 * n) / (max_new + 1)}
 *       over the {@code n} requests left running ({@code SGLANG_RETRACT_DECODE_STEPS} 20), at most 1.</li>
 * </ul>
 * SGLang retracts the request with the fewest output tokens first; the twin preempts its newest, as for vLLM.
 */
final class OutputReserve {

    /** {@code SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION}: the most output a request is expected to add. */
    static final int CLIP_MAX_NEW_TOKENS = 4096;
    /** {@code SGLANG_INIT_NEW_TOKEN_RATIO} at the default {@code --schedule-conservativeness} of 1.0. */
    static final double INIT_RATIO = 0.7;
    /** {@code SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR}: the lowest ratio, as a share of the first. */
    static final double MIN_RATIO_FACTOR = 0.14;
    /** {@code SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS}: decode steps from the first ratio to the lowest. */
    static final int DECAY_STEPS = 600;
    /** {@code SGLANG_RETRACT_DECODE_STEPS}: the output a retraction expects of each request left running. */
    static final int RETRACT_DECODE_STEPS = 20;

    private final double initRatio;
    private final double minRatio;
    private final double decay;
    private double ratio;

    /**
     * SGLang's reserve at a {@code --schedule-conservativeness} of {@code conservativeness}: the first ratio {@code
     * min(0.7 x conservativeness, 1)}, the lowest {@code min(first x 0.14, 1)}, the fall per decode step their difference
     * over 600 ({@code NewTokenRatioTracker.from_server_args}, {@code scheduler_components/new_token_ratio_tracker.py};
     * the same arithmetic in {@code Scheduler.__init__} before it).
     */
    OutputReserve(double conservativeness) {
        initRatio = Math.min(INIT_RATIO * conservativeness, 1.0);
        minRatio = Math.min(initRatio * MIN_RATIO_FACTOR, 1.0);
        decay = (initRatio - minRatio) / DECAY_STEPS;
        ratio = initRatio;
    }

    /** The share of the running requests' remaining {@code max_tokens} that admission holds back for them now. */
    double ratio() {
        return ratio;
    }

    /** Tokens a request still asks for: its {@code max_tokens} less what it generated, at most the clip. */
    static int remaining(SimRequest r) {
        return Math.min(Math.max(r.maxNewTokens - r.generated, 0), CLIP_MAX_NEW_TOKENS);
    }

    /** Tokens a running request is expected to still generate, at the current ratio. */
    double expected(SimRequest r) {
        return remaining(r) * ratio;
    }

    /** A decode step ran without retracting: the expectation falls. */
    void decoded() {
        ratio = Math.max(ratio - decay, minRatio);
    }

    /** A decode step retracted requests: the expectation is set from the requests left running. */
    void retracted(List<SimRequest> left) {
        long generated = 0;
        long asked = 0;
        for (SimRequest r : left) {
            generated += r.generated;
            asked += r.maxNewTokens;
        }
        ratio = Math.min(1.0, (generated + (double) RETRACT_DECODE_STEPS * left.size()) / (asked + 1));
    }

    /** The engine idles: the expectation starts again. */
    void idle() {
        ratio = initRatio;
    }
}
