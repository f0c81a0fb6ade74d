package io.servebench.load;

import io.servebench.http.DecoderDriver;
import io.servebench.workload.RequestSpec;

import java.net.URI;

/**
 * The client's whole per-event path without the socket, for the microbenchmarks ({@code EventPathBenchmark}): a request
 * exchange fed one read at a time through a connection's HTTP/1.1 decoder, the SSE parser and the chunk interpretation,
 * to its {@link RequestRecord}. A test fixture in the load generator's package and test jar, so that the benchmark
 * needs none of its package-private parts.
 */
public final class EventPath implements AutoCloseable {

    /** Never connects: the client only lends its exchanges. */
    private final StreamingClient client = new StreamingClient(new Target(URI.create("http://127.0.0.1:9"),
            "Qwen/Qwen3.5-9B"), LoadParams.of(new ArrivalProfile.Constant(1)), DeltaTokenCounter.ONE_PER_EVENT);
    private final DecoderDriver decoder = new DecoderDriver();

    /** The record of {@code spec}'s exchange when {@code reads} arrive one after another, at clock ticks 4, 5, .... */
    public RequestRecord run(RequestSpec spec, byte[][] reads) {
        StreamingClient.Exchange exchange = client.new Exchange(spec, spec.maxTokens());
        exchange.start(1);
        exchange.sent(2);
        decoder.reset(exchange);
        long t = 3;
        for (byte[] read : reads) {
            if (decoder.feed(read, 0, read.length, ++t)) {
                exchange.end(t);
            }
        }
        return exchange.result.getNow(null);
    }

    @Override
    public void close() {
        client.close();
    }
}
