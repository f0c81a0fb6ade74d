/**
 * The simulated engine calibrated against the reference study: {@link io.servebench.calibration.ReferenceBlock}
 * reads its result blocks, {@link io.servebench.calibration.Calibration} runs each block's configuration in
 * virtual time, fits the engine profiles' constants on a stated subset of blocks and predicts the others without
 * refitting, and {@link io.servebench.calibration.CalibrationReport} prints the two side by side.
 *
 * <p>Below the command line; imports {@code load}, {@code metrics}, {@code workload} and the simulator.
 */
package io.servebench.calibration;
