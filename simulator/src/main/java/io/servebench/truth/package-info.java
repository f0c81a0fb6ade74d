/**
 * Ground truth about what a server sent: the {@link io.servebench.truth.ServerTruth} of a request and its
 * {@link io.servebench.truth.SentEvent}s (when each token event's write returned), kept by the simulated engine and by
 * the scripted {@link io.servebench.truth.TruthServer}. The truth server is the load generator's reference: a NIO
 * server that streams what its {@link io.servebench.truth.Script} says (time to first token, gaps, chunk shapes,
 * stalls, failures) to thousands of open streams, and records the time of every write.
 *
 * <p>Times are {@link System#nanoTime()} of the server's JVM: on Linux CLOCK_MONOTONIC, comparable with a client's
 * on the same host. Depends on the JDK only.
 */
package io.servebench.truth;
