/**
 * Studies as data: a study class read by reflection or by the processor into a
 * {@link io.servebench.study.StudyDescriptor}, the rules that give each variant its engine, flags and workload
 * ({@link io.servebench.study.Studies}), the checks both the processor and the runner apply
 * ({@link io.servebench.study.StudyChecker}), and the benchmark list. {@link io.servebench.study.WorkloadOptions} is
 * the load one level of a study writes; {@link io.servebench.workload.LoadOption} the load options beyond the basic six.
 *
 * <p>Imports {@code engine} (the kinds a study may name, their flags) and below.
 */
package io.servebench.study;
