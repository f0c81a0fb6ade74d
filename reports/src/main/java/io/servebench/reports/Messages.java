package io.servebench.reports;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * One language's message table: every heading, label and sentence the text reports print, keyed by
 * name, read from {@code messages_<tag>.properties} beside this class (UTF-8). A message is a
 * {@link String#format} pattern formatted with {@link Locale#ROOT}, so {@code %%} stands for a percent sign.
 */
final class Messages {

    private final ReportLanguage language;
    private final Map<String, String> patterns;

    private Messages(ReportLanguage language, Map<String, String> patterns) {
        this.language = language;
        this.patterns = patterns;
    }

    static Messages load(ReportLanguage language) {
        String resource = "messages_" + language.tag().replace('-', '_') + ".properties";
        try (InputStream in = Messages.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("message table " + resource + " is missing beside " + Messages.class.getName());
            }
            Properties p = new Properties();
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            Map<String, String> patterns = new TreeMap<>();
            p.stringPropertyNames().forEach(k -> patterns.put(k, p.getProperty(k)));
            return new Messages(language, Map.copyOf(patterns));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read message table " + resource, e);
        }
    }

    public ReportLanguage language() {
        return language;
    }

    /** The names of every message in the table. */
    public Set<String> keys() {
        return patterns.keySet();
    }

    /**
     * The message {@code key} formatted with {@code args}.
     *
     * @throws IllegalArgumentException when the table has no such message
     */
    public String text(String key, Object... args) {
        String pattern = patterns.get(key);
        if (pattern == null) {
            throw new IllegalArgumentException("message \"" + key + "\" is missing from the " + language.tag()
                    + " message table");
        }
        return String.format(Locale.ROOT, pattern, args);
    }
}
