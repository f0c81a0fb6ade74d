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

    /**
     * The id without its running number ({@code vllm-e064484c-constant-16} of {@code t03-vllm-e064484c-constant-16}): the
     * same trial in every plan of its study, whatever else a run selects; the running number depends on the selection.
     * Unique in the plan: trials of one server whose load is the same but whose workloads differ otherwise (two
     * datasets, two request counts) end in their workload's hash ({@code vllm-e064484c-constant-16-3f2a91c0}).
     */
    public String key() {
        return withoutRunningNumber(id);
    }

    /** The {@link #serverId()} without its running number, as {@link #key()} is the id's. */
    public String serverKey() {
        return withoutRunningNumber(serverId);
    }

    private static String withoutRunningNumber(String planId) {
        return planId.substring(planId.indexOf('-') + 1);
    }
}
