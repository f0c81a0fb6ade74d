/**
 * The command line of {@code benchmarks.jar} (picocli): running, listing and planning studies ({@code Main}),
 * {@code compare}, {@code loadcheck} and {@code sim serve}. It turns arguments into {@code RunOptions} and exit codes
 * (0 all trials ran, 1 a trial failed, 2 a bad command line or study) and holds no logic of its own.
 *
 * <p>The top layer: may import every package below it; nothing imports it.
 */
package io.servebench.cli;
