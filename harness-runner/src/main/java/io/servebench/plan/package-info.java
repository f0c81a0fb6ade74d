/**
 * Trial planning: {@link io.servebench.plan.TrialPlanner} expands each selected variant over the parameters it uses,
 * resolves its settings (command line, method, class, defaults) into a server configuration and
 * {@link io.servebench.plan.WorkloadParams}, measures identical trials once, and orders them so each server
 * configuration starts once. A {@link io.servebench.plan.ResultBlock} is one variant at one workload point as
 * reported; a {@link io.servebench.plan.Trial} is one server configuration under one workload point, measured once
 * for every block that asks for it.
 *
 * <p>Imports {@code study} and below.
 */
package io.servebench.plan;
