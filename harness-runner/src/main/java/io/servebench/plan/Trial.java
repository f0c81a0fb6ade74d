package io.servebench.plan;

import io.servebench.engine.ServerConfig;

/**
 * One measurement: a server configuration under one workload point. Result blocks that ask for the
 * same server and workload share one trial, measured once.
 *
 * @param id       a short readable id, unique in the plan, used in file names ({@code requests/<id>.jsonl.gz})
 * @param serverId the id of its server start, unique in the plan ({@code logs/<serverId>.log})
 * @param server   the server configuration
 * @param workload the workload point
 */
public record Trial(String id, String serverId, ServerConfig server, WorkloadParams workload) {
}
