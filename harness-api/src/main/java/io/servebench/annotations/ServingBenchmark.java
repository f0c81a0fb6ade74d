package io.servebench.annotations;

import org.junit.platform.commons.annotation.Testable;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class as a study: a set of {@link Variant}s of one serving configuration, measured under
 * one {@link Workload}. The class plays the role of a JMH benchmark class; its variant methods are
 * the benchmarks and are listed as {@code fully.qualified.Class.method}.
 *
 * <pre>{@code
 * @ServingBenchmark(model = "Qwen/Qwen3.5-9B")
 * @Engine(value = "vllm", flags = {"--reasoning-parser=qwen3", "--max-model-len=32768"})
 * @Workload(dataset = "sharegpt:ShareGPT_V3_unfiltered_cleaned_split.json", profile = Profile.CONSTANT, rate = 8, requests = 1000)
 * public class VllmOptionGroups {
 *     @Baseline @Variant public void baseline() {}
 *     @Variant(group = "prefix-caching", flags = "--enable-prefix-caching") public void prefixCaching() {}
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Testable
public @interface ServingBenchmark {

    /** The model the engine serves, as the engine names it (a Hugging Face id or a local path). */
    String model();

    /** One line saying what the study is for; shown in reports. */
    String description() default "";
}
