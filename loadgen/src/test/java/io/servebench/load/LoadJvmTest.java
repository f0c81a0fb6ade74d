package io.servebench.load;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The JVM options ServeBench starts its load-sending processes with, as a runtime takes them. */
class LoadJvmTest {

    /** Prints what a process started with {@link LoadJvm#OPTIONS} collects with. */
    public static void main(String[] args) {
        System.out.println(LoadJvm.lowPause() + " " + LoadJvm.pausingCollectors().stream().map(b -> b.getName()).toList());
    }

    @Test
    void aLoadProcessCollectsWithZgcAndOnlyItsPausesCountAsPauses() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(LoadJvm.OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LoadJvmTest.class.getName()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(child.exitValue()).as(out).isZero();
        // the concurrent "ZGC Cycles" run beside the application: counting them as pauses would invent lag
        assertThat(out).isEqualTo("true [ZGC Pauses]");
    }
}
