package io.servebench.results;

import java.util.Objects;

/**
 * How far the simulated engine's figures can be trusted for one kind of set-up under one load regime: how they matched
 * the published results of that kind in {@code sim validate}, which fits nothing to them, and for the set-up the twin
 * was calibrated on, what its held-out blocks showed. Data, not words: the reports say it in their language.
 *
 * @param engine       the engine the twin stood for, {@code vllm} or {@code sglang}
 * @param architecture {@code dense}, {@code moe} or {@code hybrid}; {@code -integer} after it for integer weights, which
 *                     no published case has
 * @param gpu          the GPU's id in the twin's catalogue ({@code h100}, {@code h100-pcie})
 * @param gpus         on one GPU, split over several, or several holding whole experts
 * @param regime       how the load arrived
 * @param cases        published cases of this kind the twin ran; 0: unvalidated
 * @param figures      published figures of those cases
 * @param maxError     the largest |twin / published - 1| over them, a fraction
 * @param meanError    their mean, a fraction
 * @param fasterFigures how many of those figures the twin gave faster than published (a time shorter, a throughput
 *                     higher): its errors lean one way, which the ± alone does not say
 * @param medianSpeedRatio the median over those figures of how many times faster the twin was (twin / published for a
 *                     throughput, published / twin for a time); 0 where unvalidated, or in results written before the
 *                     bars carried it
 * @param calibration  what the held-out blocks of the calibration showed, for its own kind of set-up; {@code null}
 *                     for any other
 */
public record TwinBar(String engine, String architecture, String gpu, Gpus gpus, Regime regime, int cases, int figures,
                      double maxError, double meanError, int fasterFigures, double medianSpeedRatio, HeldOut calibration) {

    public TwinBar {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(architecture, "architecture");
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(gpus, "gpus");
        Objects.requireNonNull(regime, "regime");
        if (cases < 0 || figures < 0 || (cases == 0) != (figures == 0)) {
            throw new IllegalArgumentException("a bar of " + cases + " cases and " + figures + " figures");
        }
        if (fasterFigures < 0 || fasterFigures > figures || !(medianSpeedRatio >= 0)) {
            throw new IllegalArgumentException("a bar of " + figures + " figures, " + fasterFigures
                    + " of them faster than published, a median speed ratio of " + medianSpeedRatio);
        }
    }

    /** Whether the bar says which way the twin's figures leaned: a validated bar written since bars carry it. */
    public boolean leans() {
        return cases > 0 && medianSpeedRatio > 0;
    }

    /** Whether no published case of this kind was run. */
    public boolean unvalidated() {
        return cases == 0;
    }

    /** How the model was laid over the GPUs. */
    public enum Gpus {
        /** One GPU. */
        ONE,
        /** Split over several (tensor parallelism above 1), a slice of every expert each. */
        SEVERAL,
        /** Several, holding whole experts in groups (vLLM's --enable-expert-parallel, SGLang's --ep-size). */
        EXPERT_PARALLEL
    }

    /** How a load's requests arrived: the twin's errors differ most between the two (it runs too fast at saturation). */
    public enum Regime {
        /** At a request rate that spreads the requests over {@value #PACED_OVER_SECONDS} s or more. */
        PACED,
        /** All at once (vLLM's --request-rate inf), a burst faster than that, or a closed loop. */
        UNPACED;

        /**
         * Requests arriving over less than this are a burst, whatever their rate: the published bursts send 1,000
         * requests at 1,000 req/s (in 1 s, 512 in flight at most); the slowest paced case, 16 req/s, spreads them over
         * 62 s.
         */
        public static final double PACED_OVER_SECONDS = 10;

        /**
         * The regime of {@code requests} sent at {@code rate} requests per second ({@code NaN}: at no rate, as a closed
         * loop or all at once): a published case's, and a block's.
         */
        public static Regime of(double rate, long requests) {
            return rate > 0 && requests / rate >= PACED_OVER_SECONDS ? PACED : UNPACED;
        }
    }

    /**
     * The calibration's own evidence: fitted on the blocks at one rate of a reference study, predicted on its blocks at
     * the other rates without refitting.
     *
     * @param model     the reference study's model
     * @param fitRate   the rate of the fitted blocks, requests per second
     * @param blocks    the held-out blocks
     * @param figures   their figures compared: each block's mean latency and mean TTFT
     * @param maxError  the largest |twin / reference - 1| over them, a fraction
     * @param meanError their mean, a fraction
     */
    public record HeldOut(String model, double fitRate, int blocks, int figures, double maxError, double meanError) {
    }
}
