package io.servebench.engine;

import io.servebench.engine.kind.EngineKinds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * An engine ServeBench starts answers on the loopback address alone, unless the run's load workers on other machines
 * must reach it ({@link EngineParams#ALL_INTERFACES}): then on this machine's other addresses too. Tried on the
 * simulated engine in the harness's JVM and as a process, through a socket to an address of this machine's network.
 */
class ListenAddressTest {

    private static final ServerConfig SERVER = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3.5-9B", List.of());

    /** An IPv4 address of this machine that is not a loopback one, as another machine would connect to. */
    private static Optional<InetAddress> networkAddress() throws SocketException {
        return NetworkInterface.networkInterfaces().filter(i -> {
            try {
                return i.isUp() && !i.isLoopback();
            } catch (SocketException e) {
                return false;
            }
        }).flatMap(NetworkInterface::inetAddresses).filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .findFirst();
    }

    private static void connect(InetAddress address, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2000);
        }
    }

    @Test
    void onTheLoopbackAloneByDefaultAndOnEveryInterfaceWhenAskedInProcessAndAsAProcess(@TempDir Path tmp)
            throws Exception {
        Optional<InetAddress> network = networkAddress();
        assumeThat(network).as("an address of this machine beside the loopback one").isPresent();
        for (EngineParams.Simulate simulate : List.of(EngineParams.Simulate.IN_PROCESS, EngineParams.Simulate.PROCESS)) {
            EngineParams engines = EngineParams.defaults(simulate, 1);
            try (RunningEngine engine = Engines.start(SERVER, engines, tmp.resolve(simulate + "-loopback.log"))) {
                int port = engine.endpoint().baseUri().getPort();
                connect(InetAddress.getLoopbackAddress(), port);
                assertThatThrownBy(() -> connect(network.get(), port)).as(simulate.toString())
                        .isInstanceOf(java.net.ConnectException.class);
            }
            try (RunningEngine engine = Engines.start(SERVER, engines.listeningOn(EngineParams.ALL_INTERFACES),
                    tmp.resolve(simulate + "-all.log"))) {
                // the harness itself still talks to it over the loopback address
                assertThat(engine.endpoint().baseUri().getHost()).isEqualTo("127.0.0.1");
                int port = engine.endpoint().baseUri().getPort();
                connect(InetAddress.getLoopbackAddress(), port);
                connect(network.get(), port);
            }
        }
    }
}
