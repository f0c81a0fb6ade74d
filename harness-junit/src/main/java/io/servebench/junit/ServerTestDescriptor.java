package io.servebench.junit;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/** One server configuration of a study: a container of the trials one engine start serves, back to back. */
final class ServerTestDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "server";

    private final String serverId;

    /** @param serverId the server's id in the plan ({@code s01-vllm-1a2b3c4d}) */
    ServerTestDescriptor(UniqueId id, String serverId, String displayName) {
        super(id, displayName);
        this.serverId = serverId;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    String serverId() {
        return serverId;
    }
}
