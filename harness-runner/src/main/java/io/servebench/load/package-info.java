/**
 * The load generator: {@link io.servebench.load.LoadGenerator} sends requests to a {@link io.servebench.load.Target}
 * on an {@link io.servebench.load.ArrivalProfile}'s intended send times (open loop) or as closed-loop streams, through
 * an HttpClient 5 async {@link io.servebench.load.StreamingClient} whose byte-level {@code SseParser} stamps each read
 * before parsing it; every request becomes a {@link io.servebench.load.RequestRecord} (intended, sent, first and last
 * token event, every event's time and tokens), written to {@code requests/<trial>.jsonl.gz}.
 *
 * <p>Times are {@link System#nanoTime()}. Imports {@code workload} (the requests it sends) only.
 */
package io.servebench.load;
