package io.servebench.wire.http;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A group of event-loop threads on the platform's best transport (epoll on Linux, whose timers wake a loop to
 * the microsecond; NIO elsewhere), named, daemon, and counted for their CPU time.
 */
final class EventLoops {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final EventLoopGroup group;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    EventLoops(String name, int count) {
        AtomicInteger made = new AtomicInteger();
        ThreadFactory factory = task -> {
            int n = made.incrementAndGet();
            Thread t = new Thread(task, count == 1 ? name : name + "-" + n);
            t.setDaemon(true);
            threads.add(t);
            return t;
        };
        IoHandlerFactory io = Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.group = new MultiThreadIoEventLoopGroup(count, factory, io);
    }

    EventLoopGroup group() {
        return group;
    }

    static Class<? extends ServerSocketChannel> serverChannel() {
        return Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static Class<? extends SocketChannel> channel() {
        return Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** The loops' CPU time so far, nanoseconds (user and kernel); 0 where the JVM cannot tell. */
    long cpuNs() {
        long sum = 0;
        for (Thread t : threads) {
            sum += Math.max(0, THREADS.getThreadCpuTime(t.getId()));
        }
        return sum;
    }

    /** Stops the loops and waits for them, at most {@code timeoutMs}. */
    void shutdown(long timeoutMs) {
        group.shutdownGracefully(0, timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(timeoutMs + 1000);
    }
}
