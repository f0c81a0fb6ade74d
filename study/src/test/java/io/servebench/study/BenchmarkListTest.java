package io.servebench.study;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchmarkListTest {

    @TempDir
    Path dir;

    @Test
    void readsEveryListOnTheClassPathSortedAndOnce() throws IOException {
        Path first = write("first", "b.B.x\na.A.y\n\n");
        Path second = write("second", "c.C.z\na.A.y\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[]{first.toUri().toURL(), second.toUri().toURL()}, null)) {
            assertThat(BenchmarkList.read(loader)).containsExactly("a.A.y", "b.B.x", "c.C.z");
        }
    }

    @Test
    void resolvesEntriesToTheirStudyAndVariant() {
        List<Benchmark> benchmarks = BenchmarkList.resolve(List.of(
                "io.servebench.study.SampleStudy.maxNumSeqs",
                "io.servebench.study.SampleStudy.zBaseline"), getClass().getClassLoader());

        assertThat(benchmarks).extracting(Benchmark::name).containsExactly(
                "io.servebench.study.SampleStudy.maxNumSeqs", "io.servebench.study.SampleStudy.zBaseline");
        assertThat(benchmarks.get(0).variant().group()).isEqualTo("max-num-seqs");
        assertThat(benchmarks.get(1).variant().baseline()).isTrue();
        // one class is read once: both benchmarks share its descriptor
        assertThat(benchmarks.get(0).study()).isSameAs(benchmarks.get(1).study());
    }

    @Test
    void aStaleEntryNamesTheEntryAndTheVariantsThereAre() {
        assertThatThrownBy(() -> BenchmarkList.resolve(List.of("io.servebench.study.SampleStudy.gone"),
                getClass().getClassLoader()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("benchmark io.servebench.study.SampleStudy.gone")
                .hasMessageContaining("[zBaseline, maxNumSeqs, aSglang]");
        assertThatThrownBy(() -> BenchmarkList.resolve(List.of("no.such.Study.x"), getClass().getClassLoader()))
                .hasMessageContaining("cannot load class no.such.Study");
    }

    @Test
    void splitsAnEntryAtItsLastDot() {
        assertThat(BenchmarkList.className("a.b.Outer$Inner.run")).isEqualTo("a.b.Outer$Inner");
        assertThat(BenchmarkList.methodName("a.b.Outer$Inner.run")).isEqualTo("run");
        assertThatThrownBy(() -> BenchmarkList.className("nodot"))
                .hasMessageContaining("malformed benchmark list entry \"nodot\"");
    }

    private Path write(String root, String text) throws IOException {
        Path file = dir.resolve(root).resolve(BenchmarkList.RESOURCE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return dir.resolve(root);
    }
}
