package io.servebench.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.servebench.results.TrialResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessagesTest {

    @Test
    void everyLanguageHasEveryMessage() {
        assertThat(ReportLanguage.ZH_CN.messages().keys()).isEqualTo(ReportLanguage.EN.messages().keys());
    }

    @Test
    void unknownMessagesAndLanguagesAreNamed() {
        assertThatThrownBy(() -> ReportLanguage.EN.messages().text("no.such"))
                .hasMessage("message \"no.such\" is missing from the en message table");
        assertThat(ReportLanguage.of("zh_cn")).isEqualTo(ReportLanguage.ZH_CN);
        assertThatThrownBy(() -> ReportLanguage.of("de"))
                .hasMessage("report language \"de\" is not supported; expected en or zh-CN");
    }

    @Test
    void serveCommandsQuoteWhatAShellWouldSplit() {
        TrialResult sglang = Fixtures.trial("sglang", "engine", false, "--reasoning-parser=qwen3 --context-length=32768", "8",
                List.of(Fixtures.repetition(8.13, 5)));
        java.util.Map<String, String> params = new java.util.LinkedHashMap<>(sglang.params());
        params.put("engine", "sim:sglang");
        params.put(TrialResult.FLAGS, "--chat-template=it's {x} --disable-radix-cache");
        TrialResult simulated = new TrialResult(sglang.benchmark(), sglang.className(), sglang.variant(), sglang.group(),
                false, params, sglang.trialId(), sglang.serverId(), sglang.repetitions(), null);

        assertThat(ServeCommand.of(simulated)).contains("python -m sglang.launch_server --model-path Qwen/Qwen3.5-9B "
                + "'--chat-template=it'\\''s {x}' --disable-radix-cache");
        assertThat(ServeCommand.simulated(simulated)).isTrue();
        assertThat(ServeCommand.simulated(sglang)).isFalse();
    }
}
