/**
 * What a study author writes: {@code @ServingBenchmark} makes a class a study, {@code @Engine} names the engine it
 * starts and how, {@code @Workload} the load, {@code @Variant} each configuration (with {@code @Baseline},
 * {@code @Recommended}, {@code @ServerOptions}, {@code @Slo}), and {@code @Param} the values a study expands over, as
 * JMH's {@code @Param}. Settings resolve as JMH's do: the command line, then the method, then the class, then the
 * defaults documented here.
 *
 * <p>Depends on the JDK only, so a study compiles against this module and nothing else.
 */
package io.servebench.annotations;
