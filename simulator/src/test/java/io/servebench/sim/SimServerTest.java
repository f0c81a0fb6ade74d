package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The simulated engine's own command line, and listening where a container's published port reaches it. */
class SimServerTest {

    @Test
    void theCommandLineNamesTheAddressAndLeavesEngineFlagsToTheEngine() {
        SimServer.Options options = SimServer.parse(List.of("Qwen/Qwen3.5-9B", "--host", "0.0.0.0", "--port=8001",
                "--max-num-seqs", "64", "--enable-prefix-caching"));
        assertThat(options.host()).isEqualTo("0.0.0.0");
        assertThat(options.port()).isEqualTo(8001);
        assertThat(options.engineFlags()).containsExactly("--max-num-seqs=64", "--enable-prefix-caching");

        assertThat(SimServer.parse(List.of("Qwen/Qwen3.5-9B")).host()).isEqualTo("127.0.0.1");
        assertThatThrownBy(() -> SimServer.parse(List.of("Qwen/Qwen3.5-9B", "--host")))
                .hasMessageStartingWith("--host needs a value");
        assertThatThrownBy(() -> SimServer.parse(List.of("Qwen/Qwen3.5-9B", "--host=")))
                .hasMessageContaining("--host is empty");
    }

    /** As argparse reads a list-valued flag ({@code nargs='+'}): every argument up to the next flag is one of its items. */
    @Test
    void aListValuedFlagsItemsAreItsValue() {
        assertThat(SimServer.parse(List.of("m", "--enable-lora", "--lora-modules", "a=/x", "b=/y", "--max-loras=2"))
                .engineFlags()).containsExactly("--enable-lora", "--lora-modules=a=/x b=/y", "--max-loras=2");
    }

    @Test
    void anEngineOnEveryInterfaceAnswersOnTheLoopback() throws Exception {
        SimParams params = SimParams.fromFlags(SimDialect.VLLM, SimulatedEngineTest.MODEL, List.of());
        try (SimulatedEngine engine = SimulatedEngine.start(params, new InetSocketAddress("0.0.0.0", 0), 1)) {
            assertThat(engine.baseUri().getHost()).isEqualTo("127.0.0.1");
            assertThat(SimHttp.get(engine, "/health").status()).isEqualTo(200);
        }
    }
}
