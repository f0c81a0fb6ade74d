/**
 * The annotation processor: at compile time it reads each study from the element model into a
 * {@code StudyDescriptor}, runs the same {@code StudyChecker} the runner runs, reports every problem on the offending
 * annotation value, and writes {@code META-INF/servebench/BenchmarkList}. A thin adapter, as JMH's is.
 *
 * <p>An entry point beside the command line: imports {@code study} and below; nothing imports it.
 */
package io.servebench.processor;
