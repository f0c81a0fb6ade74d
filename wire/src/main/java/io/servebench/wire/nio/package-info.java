/**
 * The one selector loop of ServeBench's own NIO transports, which measured better than Netty where every
 * microsecond is a measured one: the load client's ({@code io.servebench.http}) and the ground-truth server's
 * ({@code io.servebench.truth}). A {@link io.servebench.wire.nio.SelectorLoop} waits, hands ready keys to their
 * {@link io.servebench.wire.nio.SelectorLoop.Ready} attachments and runs handed-in tasks; its
 * {@link io.servebench.wire.nio.SelectorLoop.Owner} does the transport's timed work. It knows no HTTP.
 */
package io.servebench.wire.nio;
