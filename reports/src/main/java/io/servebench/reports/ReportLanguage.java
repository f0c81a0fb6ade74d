package io.servebench.reports;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The languages the text reports are written in; each has its own message table ({@link Messages}). */
public enum ReportLanguage {
    /** English, the default. */
    EN("en"),
    /** Simplified Chinese, in the headings and phrasing of the reference study's original report. */
    ZH_CN("zh-CN");

    private final String tag;
    private volatile Messages messages;

    ReportLanguage(String tag) {
        this.tag = tag;
    }

    /** The BCP 47 tag, as {@code --lang} takes it and {@code <html lang>} carries it. */
    public String tag() {
        return tag;
    }

    /** This language's message table, loaded on first use. */
    Messages messages() {
        Messages m = messages;
        if (m == null) {
            m = Messages.load(this);
            messages = m;
        }
        return m;
    }

    /**
     * The language with this tag, case-insensitive, {@code _} accepted for {@code -}.
     *
     * @throws IllegalArgumentException naming the tag and the supported ones
     */
    public static ReportLanguage of(String tag) {
        String wanted = tag == null ? "" : tag.strip().replace('_', '-');
        return Arrays.stream(values()).filter(l -> l.tag.equalsIgnoreCase(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("report language \"" + tag + "\" is not supported; expected "
                        + Arrays.stream(values()).map(ReportLanguage::tag).collect(Collectors.joining(" or "))));
    }
}
