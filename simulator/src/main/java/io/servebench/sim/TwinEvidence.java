package io.servebench.sim;

import com.fasterxml.jackson.core.type.TypeReference;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How far to trust the simulated engine for one kind of set-up: how its figures matched published results of that
 * engine, GPU, architecture, number of GPUs (one, or several under tensor parallelism) and load regime in {@code sim
 * validate}, which fits nothing to them. Read from
 * {@value #RESOURCE}, which {@code sim validate --write-evidence} writes and a test recomputes, so that it cannot
 * fall behind the twin's physics.
 *
 * @param engine       {@code vllm} or {@code sglang}
 * @param gpu          the GPU's id in {@link GpuProfile#catalogue()}
 * @param architecture {@code dense}, {@code moe} or {@code hybrid} ({@link #architecture(ModelProfile)})
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
 */
public record TwinEvidence(String engine, String gpu, String architecture, boolean severalGpus, boolean expertParallel,
                           Regime regime, int cases,
                           int figures, double maxError, double meanError) {

    /** How a load's requests arrive, as the evidence groups published results and the statement names them. */
    public enum Regime {
        /** At a request rate: Poisson or constant arrivals. */
        PACED("at a request rate"),
        /** All at once (vLLM's {@code --request-rate inf}), or as a closed loop of a fixed number in flight. */
        UNPACED("all at once or in a closed loop");

        private final String words;

        Regime(String words) {
            this.words = words;
        }

        /** The regime in the statement's words. */
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

    /** A model's architecture as the evidence groups it: hybrid (a per-sequence state), moe (routed experts), dense. */
    public static String architecture(ModelProfile model) {
        return model.stateBytesPerSequence() > 0 ? "hybrid" : model.experts().count() > 0 ? "moe" : "dense";
    }

    /**
     * The statement the blocks of this set-up carry, one clause per load regime: "at a request rate: within ±24% (mean
     * 11%) on 3 published vLLM dense H100 cases on one GPU (12 figures); all at once or in a closed loop: unvalidated, no
     * published vLLM dense H100 case on one GPU", or "unvalidated: no published vLLM hybrid L40S case on one GPU" where
     * there is none of either. Cases with expert parallelism are a kind of their own: "... on several GPUs with expert
     * parallelism". The set-up the twin was calibrated on adds what its held-out blocks showed to its regime's clause
     * ({@link TwinCalibration}).
     */
    public static String statement(String engine, String gpu, String architecture, boolean severalGpus,
                                   boolean expertParallel) {
        // the GPU as its id reads in capitals, a form factor as NVIDIA writes it (h100-pcie: H100 PCIe)
        // the engine by the dialect the twin speaks (the simulator sits below the engine kinds, whose names it cannot see)
        String kind = (engine.equals(SimDialect.SGLANG.toString()) ? "SGLang" : "vLLM") + " " + architecture + " "
                + gpu.toUpperCase(Locale.ROOT).replace("-PCIE", " PCIe");
        String where = !severalGpus ? " on one GPU" : expertParallel ? " on several GPUs with expert parallelism"
                : " on several GPUs";
        List<TwinEvidence> of = BUNDLED.stream().filter(e -> e.engine.equals(engine) && e.gpu.equals(gpu)
                && e.architecture.equals(architecture) && e.severalGpus == severalGpus
                && e.expertParallel == expertParallel).toList();
        List<TwinCalibration> calibrated = TwinCalibration.bundled().stream().filter(c -> !expertParallel
                && c.engine().equals(engine) && c.gpu().equals(gpu) && c.architecture().equals(architecture)
                && c.severalGpus() == severalGpus).toList();
        if (of.isEmpty() && calibrated.isEmpty()) {
            return "unvalidated: no published " + kind + " case" + where;
        }
        List<String> clauses = new ArrayList<>();
        for (Regime regime : Regime.values()) {
            String published = of.stream().filter(e -> e.regime == regime).findFirst()
                    .map(e -> String.format(Locale.ROOT, "within ±%.0f%% (mean %.0f%%) on %d published %s case%s%s (%d figures)",
                            100 * e.maxError, 100 * e.meanError, e.cases, kind, e.cases == 1 ? "" : "s", where, e.figures))
                    .orElse("unvalidated, no published " + kind + " case" + where);
            // the calibration's own set-up: no published evidence, but what its held-out blocks showed
            String fitted = calibrated.stream().filter(c -> c.regime() == regime).findFirst()
                    .map(c -> ", but " + c.clause()).orElse("");
            clauses.add(regime.words() + ": " + published + fitted);
        }
        return String.join("; ", clauses);
    }

    /**
     * The statement for a block of these settings on the GPU of id {@code gpu} ({@link #statement(String, String,
     * String, boolean, boolean)}): with expert parallelism where the settings deal a mixture of experts' experts to
     * groups of GPUs.
     */
    public static String statement(SimParams settings, String gpu) {
        return statement(settings.dialect().toString(), gpu, architecture(settings.model()),
                settings.tensorParallelSize() > 1, expertParallel(settings));
    }

    /** Whether the settings deal a mixture of experts' whole experts to groups of GPUs. */
    public static boolean expertParallel(SimParams settings) {
        return settings.expertParallelSize() > 1 && settings.model().experts().layers() > 0;
    }
}
