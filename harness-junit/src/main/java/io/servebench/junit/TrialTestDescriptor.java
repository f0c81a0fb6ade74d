package io.servebench.junit;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/** One trial, a test: its server configuration under one workload point, for every variant it serves. */
final class TrialTestDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "trial";

    private final String trialId;

    /** @param trialId the trial's id in the plan ({@code t03-vllm-1a2b3c4d-constant-8}) */
    TrialTestDescriptor(UniqueId id, String trialId, String displayName, TestSource source) {
        super(id, displayName, source);
        this.trialId = trialId;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    String trialId() {
        return trialId;
    }
}
