/**
 * Workloads: datasets ({@code sharegpt:PATH}, {@code synthetic-sharegpt}) and the
 * {@link io.servebench.workload.RequestSpec}s they give, in a seeded order, each asking for exactly its reply length.
 *
 * <p>The bottom layer of the runner: imports nothing of it.
 */
package io.servebench.workload;
