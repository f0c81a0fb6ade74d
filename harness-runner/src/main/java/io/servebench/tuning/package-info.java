/**
 * Adaptive search over a study's configurations: the {@link io.servebench.tuning.Tuner} carries out the tuning method
 * (engine, option groups, combination, validation) and {@link io.servebench.tuning.CapacitySearch} finds the highest
 * request rate that meets the SLOs. Both choose what to measure next from what was measured and ask a
 * {@link io.servebench.tuning.Tuner.Measurer} for it; how and where trials run is not theirs to know.
 */
package io.servebench.tuning;
