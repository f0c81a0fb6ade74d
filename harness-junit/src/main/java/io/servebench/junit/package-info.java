/**
 * The JUnit Platform test engine ({@link io.servebench.junit.ServeBenchTestEngine}, id {@code servebench}): studies
 * run from the IDE's run button and from {@code mvn test}. Discovery takes class, method, package, class-path-root and
 * unique-id selectors and plans each study into a tree (study → server configuration → trial, each trial a test);
 * execution runs each study through the {@code Runner} and turns its events into test events, with the trial's
 * headline numbers as reporting entries and a failure for a trial that did not run to its end or missed
 * {@code @Slo(minAttainment)}.
 *
 * <p>Depends on {@code harness-runner} and {@code junit-platform-engine}.
 */
package io.servebench.junit;
