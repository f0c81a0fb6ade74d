package io.servebench.junit;

import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;

import java.util.Optional;

/**
 * ServeBench as a JUnit Platform test engine: the IDE's run button on a study class or a variant method, and
 * {@code mvn test}, run studies as tests. Discovery plans each selected study into a tree (study → server
 * configuration → trial); execution runs each study as one ServeBench run, writing its run folder as the command
 * line does, and reports each trial as a test with its headline numbers. Settings come from the configuration
 * parameters {@code servebench.*} ({@link EngineConfiguration}).
 */
public final class ServeBenchTestEngine implements TestEngine {

    /** The engine's id, as JUnit names it in unique ids and in {@code --include-engine}. */
    public static final String ID = "servebench";

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public Optional<String> getGroupId() {
        return Optional.of("io.servebench");
    }

    @Override
    public Optional<String> getArtifactId() {
        return Optional.of("harness-junit");
    }

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        EngineDescriptor engine = new EngineDescriptor(uniqueId, "ServeBench");
        new StudyDiscovery(EngineConfiguration.of(request.getConfigurationParameters())).discover(request, engine);
        return engine;
    }

    @Override
    public void execute(ExecutionRequest request) {
        TestDescriptor engine = request.getRootTestDescriptor();
        request.getEngineExecutionListener().executionStarted(engine);
        EngineConfiguration config = EngineConfiguration.of(request.getConfigurationParameters());
        for (TestDescriptor study : engine.getChildren()) {
            new StudyExecution((StudyTestDescriptor) study, request.getEngineExecutionListener()).run(config);
        }
        request.getEngineExecutionListener().executionFinished(engine, TestExecutionResult.successful());
    }
}
