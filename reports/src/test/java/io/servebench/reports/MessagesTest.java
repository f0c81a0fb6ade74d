package io.servebench.reports;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
