/**
 * The load generator: {@link io.servebench.load.LoadGenerator} sends requests to a {@link io.servebench.load.Target}
 * on an {@link io.servebench.load.ArrivalProfile}'s intended send times (open loop) or as closed-loop streams, through
 * a {@link io.servebench.load.StreamingClient} on ServeBench's own HTTP/1.1 transport ({@code io.servebench.http}),
 * whose byte-level {@code SseParser} stamps each read before parsing it; every request becomes a
 * {@link io.servebench.load.RequestRecord} (intended, sent, first and last token event, every event's time and
 * tokens), streamed to {@code requests/<trial>.jsonl.gz} as it completes. In virtual time
 * ({@code VirtualLoad}) the same records come from a {@link io.servebench.load.VirtualServer} (the simulated engine,
 * adapted by the runner) instead of a socket.
 *
 * <p>Times are {@link System#nanoTime()}. Imports {@code workload} (the requests it sends) and {@code http} (the
 * transport); no engine, study or simulator (module {@code loadgen}).
 */
package io.servebench.load;
