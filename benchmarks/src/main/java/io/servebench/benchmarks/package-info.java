/**
 * {@code QuickStart}: a first study on the simulated engine.
 */
package io.servebench.benchmarks;
