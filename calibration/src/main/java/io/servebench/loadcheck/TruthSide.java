package io.servebench.loadcheck;

import io.servebench.truth.ServerTruth;
import io.servebench.truth.TruthServer;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The ground-truth server as the check sees it: where it serves, what it did for each request, its CPU and its peak
 * streams. In this JVM ({@link #inProcess}), or in processes of its own ({@link TruthProcesses}), so that each side has its
 * own open-files limit and the client's figures are its own.
 */
interface TruthSide extends AutoCloseable {

    /** Where it serves the OpenAI-compatible API: one address per server, in the order of {@link LoadCheck#spread()}. */
    List<URI> baseUris();

    /** What the server did for the request, waited for up to {@code wait}, and let go of; empty when unknown. */
    Optional<? extends ServerTruth> takeTruth(String requestId, Duration wait);

    /** The CPU time of the server's event loops so far, ns. */
    long cpuNs();

    int peakStreams();

    long acceptFailures();

    Optional<String> firstAcceptFailure();

    /**
     * Why a truth server stopped serving before the check let it go: a process of its own that died, say; empty while
     * every one serves. The requests it had, or got after, failed or have no truth.
     */
    default Optional<String> ended() {
        return Optional.empty();
    }

    /** The open files one client connection costs this process: two when the server's end is here too. */
    int filesPerConnection();

    @Override
    void close() throws IOException;

    /** The server in this JVM. */
    static TruthSide inProcess(TruthServer server) {
        return new TruthSide() {
            @Override
            public List<URI> baseUris() {
                return List.of(server.baseUri());
            }

            @Override
            public Optional<? extends ServerTruth> takeTruth(String requestId, Duration wait) {
                return server.takeTruth(requestId, wait);
            }

            @Override
            public long cpuNs() {
                return server.cpuNs();
            }

            @Override
            public int peakStreams() {
                return server.peakStreams();
            }

            @Override
            public long acceptFailures() {
                return server.acceptFailures();
            }

            @Override
            public Optional<String> firstAcceptFailure() {
                return server.firstAcceptFailure();
            }

            @Override
            public int filesPerConnection() {
                return 2;
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }
}
