package io.servebench.reports;

import io.servebench.results.Caveat;

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

    @Test
    void everyTunerCaveatIsWordedInEveryLanguageWithEachOfItsValues() {
        for (Caveat.Code code : Caveat.Code.values()) {
            String[] values = {"A1", "B2", "C3", "D4"};
            for (ReportLanguage language : ReportLanguage.values()) {
                int expected = switch (code) {
                    case VALIDATION_RATES_UNUSED -> 0;
                    case NOTHING_BETTER, NOTHING_BETTER_AT_CONCURRENCY, VALIDATION_SLOWER, VALIDATION_NOT_FASTER, VALIDATION_WORSE, VALIDATION_NOT_BETTER,
                         THROUGHPUT_AT_A_RATE, VALIDATION_SLOWER_AT_CONCURRENCY, VALIDATION_NOT_FASTER_AT_CONCURRENCY,
                         VALIDATION_WORSE_AT_CONCURRENCY, VALIDATION_NOT_BETTER_AT_CONCURRENCY -> 1;
                    case COMBINATION_SLOWER, COMBINATION_WORSE, VALIDATION_FAILED, VALIDATION_FAILED_AT_CONCURRENCY -> 2;
                    case COMBINATION_NOT_BETTER -> 3;
                    case GROUP_NOT_TRIED, NOT_SIGNIFICANT_SLOWER, NOT_SIGNIFICANT_FASTER, NOT_SIGNIFICANT_WORSE,
                         NOT_SIGNIFICANT_BETTER, GAIN_SHRINKS, GAIN_SHRINKS_AT_CONCURRENCY -> 4;
                };
                // the report passes a caveat's own values, then the unit of the tuner's rate (req/s, conversations/s)
                Object[] args = new Object[expected + 1];
                System.arraycopy(values, 0, args, 0, expected);
                args[expected] = "UNIT";
                String text = language.messages().text("tuning.caveat." + code.name(), args);
                for (int i = 0; i < 4; i++) {
                    assertThat(text.contains(values[i])).as("%s in %s names value %d", code, language, i + 1).isEqualTo(i < expected);
                }
                boolean atARate = switch (code) {
                    case NOTHING_BETTER, VALIDATION_FAILED, VALIDATION_SLOWER, VALIDATION_NOT_FASTER, GAIN_SHRINKS,
                         VALIDATION_WORSE, VALIDATION_NOT_BETTER, THROUGHPUT_AT_A_RATE -> true;
                    default -> false;
                };
                assertThat(text.contains("UNIT")).as("%s in %s names the rate's unit", code, language).isEqualTo(atARate);
                assertThat(text).as("%s in %s", code, language).doesNotContain("req/s");
            }
        }
        // worded as the tuner wrote it before caveats were codes
        assertThat(ReportLanguage.EN.messages().text("tuning.caveat.GAIN_SHRINKS", "1.40", "1", "1.05", "16", "req/s"))
                .isEqualTo("The gain shrinks with load: 1.40x at 1 req/s, 1.05x at 16 req/s.");
        assertThat(ReportLanguage.ZH_CN.messages().text("tuning.caveat.GAIN_SHRINKS", "1.40", "1", "1.05", "16", "req/s"))
                .isEqualTo("收益随负载下降：1 req/s 时为 1.40x，16 req/s 时为 1.05x。");
    }
}
