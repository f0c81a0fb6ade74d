package io.servebench.engine;

import io.servebench.load.VirtualServer;
import io.servebench.sim.GroundTruth;
import io.servebench.sim.VirtualEngine;
import io.servebench.truth.SentEvent;

import java.util.List;
import java.util.Objects;

/** The simulated engine in virtual time as the load generator's twin sends to it: each reply its ground truth. */
public record SimulatedServer(VirtualEngine engine) implements VirtualServer {

    public SimulatedServer {
        Objects.requireNonNull(engine, "engine");
    }

    @Override
    public long clockNs() {
        return engine.clockNs();
    }

    @Override
    public void submit(String requestId, long arrivalNs, boolean chat, byte[] body) {
        engine.submit(requestId, arrivalNs, chat, body);
    }

    @Override
    public List<Reply> advance(long untilNs) {
        return engine.advance(untilNs).stream().map(SimulatedServer::reply).toList();
    }

    private static Reply reply(GroundTruth t) {
        List<Event> events = t.events().stream().map(SimulatedServer::event).toList();
        return new Reply(t.requestId(), t.receivedNs(), t.httpStatus(), t.promptTokens(), t.completionTokens(), events,
                t.error());
    }

    private static Event event(SentEvent e) {
        return new Event(e.writtenNs(), e.tokens(), e.reasoning());
    }
}
