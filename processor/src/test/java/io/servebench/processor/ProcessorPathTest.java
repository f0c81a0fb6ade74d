package io.servebench.processor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The processor's artifact leaves the runtime's libraries (Netty, the tokenizers, JNA, HdrHistogram) off a study
 * project's processor path (its pom excludes them), and this module's tests run with the path it ships: every other
 * test class here checks studies without those libraries. This one says so, so that a dependency that brings one back
 * fails here rather than in a user's build.
 */
class ProcessorPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"io.netty.channel.Channel", "ai.djl.huggingface.tokenizers.HuggingFaceTokenizer",
            "com.sun.jna.Native", "org.HdrHistogram.Histogram"})
    void theRuntimesLibrariesAreNotOnTheProcessorPath(String className) {
        assertThatThrownBy(() -> Class.forName(className, false, getClass().getClassLoader()))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void whatTheProcessorNeedsIsThere() throws ClassNotFoundException {
        // the control: the lookup above would also fail for a class that is there if the loader were wrong
        assertThat(Class.forName("io.servebench.study.StudyChecker", false, getClass().getClassLoader())).isNotNull();
    }
}
