package io.servebench.sim;

import com.fasterxml.jackson.core.type.TypeReference;

import java.util.List;

/**
 * What the twin's calibration says of the one set-up it was fitted on: the engines' profiles (step overhead, host time
 * per sequence, front end) are fitted on the reference study's blocks at one request rate, and its blocks at the other
 * rates are held out, predicted without refitting. That is no published evidence ({@code sim validate} leaves the
 * reference's own blocks out), but it is what is known of the twin on that kind of set-up, so a block of that kind
 * states it beside its published bar ({@link TwinEvidence#bars}). Read from {@value #RESOURCE}, which
 * {@code sim calibrate --no-fit --write-evidence} writes and a test recomputes.
 *
 * @param model        the reference study's model
 * @param engine       {@code vllm} or {@code sglang}: the engine of the held-out blocks
 * @param gpu          the GPU's id in {@link GpuProfile#catalogue()}
 * @param architecture as {@link TwinEvidence#architecture} groups the model
 * @param severalGpus  whether the reference split the model over several GPUs
 * @param regime       how the reference's loads arrived
 * @param fitRate      the rate whose blocks the constants were fitted on, requests per second
 * @param blocks       the held-out blocks of this engine
 * @param figures      their figures compared: each block's mean latency and mean TTFT, the means a published case gives
 * @param maxError     the largest |twin / reference - 1| over those figures
 * @param meanError    the mean of |twin / reference - 1| over them
 */
public record TwinCalibration(String model, String engine, String gpu, String architecture, boolean severalGpus,
                              TwinEvidence.Regime regime, double fitRate, int blocks, int figures, double maxError,
                              double meanError) {

    /** The bundled calibration evidence, on the class path beside this class. */
    public static final String RESOURCE = "twin-calibration.json";

    private static final List<TwinCalibration> BUNDLED = BundledList.read(RESOURCE, new TypeReference<>() { });

    /** The bundled entries, one per engine whose blocks were held out. */
    public static List<TwinCalibration> bundled() {
        return BUNDLED;
    }
}
