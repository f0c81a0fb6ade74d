package io.servebench.sim;

import com.fasterxml.jackson.core.type.TypeReference;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How far to trust the simulated engine for one kind of set-up: how its figures matched published results of that
 * engine, GPU, architecture, number of GPUs (one, or several under tensor parallelism) and load regime in {@code sim
 * validate}, which fits nothing to them. Read from
 * {@value #RESOURCE}, which {@code sim validate --write-evidence} writes and a test recomputes, so that it cannot
 * fall behind the twin's physics.
 *
 * @param engine       {@code vllm} or {@code sglang}
 * @param gpu          the GPU's id in {@link GpuProfile#catalogue()}
 * @param architecture {@code dense}, {@code moe} or {@code hybrid}, {@code -integer} after it for integer weights ({@link
 *                     #architecture(ModelProfile)})
 * @param severalGpus  whether the model was split over several GPUs (tensor parallelism above 1): the twin's errors
 *                     there come from what one GPU does not show (each kernel's floor, the all-reduces)
 * @param expertParallel whether those GPUs held whole experts in groups (vLLM's {@code --enable-expert-parallel}, SGLang's
 *                     {@code --ep-size}) rather than a slice of every expert each
 * @param regime       how the published load arrived: at a request rate, or all at once (with or without a cap on the
 *                     requests in flight); the twin's errors differ most between the two (it runs too fast at saturation)
 * @param cases        published cases of this kind the twin ran
 * @param figures      published figures of those cases
 * @param maxError     the largest |twin / published - 1| over those figures
 * @param meanError    the mean of |twin / published - 1| over them
 * @param fasterFigures how many of those figures the twin gave faster than published: a time shorter, a throughput
 *                     higher. Its errors lean one way (it runs too fast at saturation), which a ± alone does not say
 * @param medianSpeedRatio the median over those figures of how many times faster the twin was: twin / published for a
 *                     throughput, published / twin for a time; above 1, the twin was faster than the published engine
 */
public record TwinEvidence(String engine, String gpu, String architecture, boolean severalGpus, boolean expertParallel,
                           Regime regime, int cases,
                           int figures, double maxError, double meanError, int fasterFigures, double medianSpeedRatio) {

    /** How a load's requests arrive, as the evidence groups published results. */
    public enum Regime {
        /** At a request rate: Poisson or constant arrivals. */
        PACED("at a request rate"),
        /** All at once (vLLM's {@code --request-rate inf}), or as a closed loop of a fixed number in flight. */
        UNPACED("all at once or in a closed loop");

        private final String words;

        Regime(String words) {
            this.words = words;
        }

        /** The regime in words, as {@code sim validate} prints its error bars. */
        public String words() {
            return words;
        }
    }

    /** The bundled evidence, on the class path beside this class. */
    public static final String RESOURCE = "twin-evidence.json";

    private static final List<TwinEvidence> BUNDLED = BundledList.read(RESOURCE, new TypeReference<>() { });

    /** The bundled evidence, one entry per kind of set-up that has published cases. */
    public static List<TwinEvidence> bundled() {
        return BUNDLED;
    }

    /**
     * A model's architecture as the evidence groups it: hybrid (a per-sequence state), moe (routed experts), dense; with
     * {@code -integer} after it where its weights are integers multiplied in 16 bits (AWQ, GPTQ, compressed-tensors'
     * W4A16: {@link LowBitWeights#INTEGER}), which run Marlin's kernels, and {@code -nvfp4} where they are NVFP4 ({@link
     * LowBitWeights#NVFP4}: FP4 tensor cores or Marlin), kernels whose speed no published case shows, so that such a
     * set-up says it is unvalidated rather than borrow the bar of its 16-bit and FP8 kind.
     */
    public static String architecture(ModelProfile model) {
        String shape = model.stateBytesPerSequence() > 0 ? "hybrid" : model.experts().count() > 0 ? "moe" : "dense";
        return switch (model.lowBitWeights()) {
            case NONE, FP8_BLOCK -> shape;
            case INTEGER -> shape + "-integer";
            case NVFP4 -> shape + "-nvfp4";
        };
    }

    /**
     * One load regime of a set-up: what the published cases of its kind showed, and where the set-up is the one the twin
     * was calibrated on, what its held-out blocks showed ({@link TwinCalibration}); neither: unvalidated.
     */
    public record Bar(Regime regime, Optional<TwinEvidence> published, Optional<TwinCalibration> calibration) {
    }

    /**
     * The bars of a set-up, one per load regime. Cases with expert parallelism are a kind of their own; the GPU is its
     * id in {@link GpuProfile#catalogue()}.
     */
    public static List<Bar> bars(String engine, String gpu, String architecture, boolean severalGpus,
                                 boolean expertParallel) {
        List<Bar> bars = new ArrayList<>();
        for (Regime regime : Regime.values()) {
            Optional<TwinEvidence> published = BUNDLED.stream().filter(e -> e.engine.equals(engine) && e.gpu.equals(gpu)
                    && e.architecture.equals(architecture) && e.severalGpus == severalGpus
                    && e.expertParallel == expertParallel && e.regime == regime).findFirst();
            Optional<TwinCalibration> calibrated = TwinCalibration.bundled().stream().filter(c -> !expertParallel
                    && c.engine().equals(engine) && c.gpu().equals(gpu) && c.architecture().equals(architecture)
                    && c.severalGpus() == severalGpus && c.regime() == regime).findFirst();
            bars.add(new Bar(regime, published, calibrated));
        }
        return bars;
    }

    /**
     * The bars for a block of these settings on the GPU of id {@code gpu} ({@link #bars(String, String, String, boolean,
     * boolean)}): with expert parallelism where the settings deal a mixture of experts' experts to groups of GPUs.
     */
    public static List<Bar> bars(SimParams settings, String gpu) {
        return bars(settings.dialect().toString(), gpu, architecture(settings.model()), settings.tensorParallelSize() > 1,
                expertParallel(settings));
    }

    /** Whether the settings deal a mixture of experts' whole experts to groups of GPUs. */
    public static boolean expertParallel(SimParams settings) {
        return settings.expertParallelSize() > 1 && settings.model().experts().layers() > 0;
    }
}
