/**
 * The reference study of {@code seed-study/STUDY.md} as code: {@code LatencyTuning} (engine selection, then one option
 * group at a time against the vLLM baseline) and {@code RateValidation} (baseline against the recommendation across
 * request rates).
 */
package io.servebench.benchmarks.qwen;
