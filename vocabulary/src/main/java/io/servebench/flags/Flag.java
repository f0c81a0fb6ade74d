package io.servebench.flags;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One engine flag: a name and, unless it is a switch, a value. Written in a study as one string,
 * {@code "--name"}, {@code "--name=value"} or {@code "--name value"}; engines accept both
 * {@code --a=b} and {@code --a b}, and vLLM and SGLang accept {@code _} for {@code -} in names, so
 * those spellings are one flag.
 *
 * @param name  the name with its leading dashes and {@code -} for {@code _}, e.g. {@code --max-num-seqs}
 * @param value the value, or {@code null} for a switch such as {@code --enable-prefix-caching}
 */
public record Flag(String name, String value) {

    /** A word that is a negative number, which argparse takes as a value rather than an option. */
    private static final Pattern NEGATIVE_NUMBER = Pattern.compile("-\\.?\\d.*");
    /** A word that is a flag of its own, {@code --name} or {@code --name=value}, as no value of one flag starts. */
    private static final Pattern FLAG_WORD = Pattern.compile("--[A-Za-z][A-Za-z0-9._-]*(=.*)?");

    /** The flag as one command-line argument. */
    public String toArg() {
        return value == null ? name : name + "=" + value;
    }

    /**
     * The value as the items of a list-valued flag (argparse's {@code nargs='+'} or {@code '*'}): split at whitespace
     * outside JSON brackets and quotes, so that {@code a=/x b=/y} is two items and {@code {"name": "a"}} one. Empty for
     * a switch.
     */
    public List<String> values() {
        if (value == null) {
            return List.of();
        }
        List<String> items = new ArrayList<>();
        StringBuilder item = new StringBuilder();
        int depth = 0;
        char quote = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (quote != 0) {
                if (c == '\\' && i + 1 < value.length()) {
                    item.append(c).append(value.charAt(++i));
                    continue;
                }
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth = Math.max(0, depth - 1);
            } else if (Character.isWhitespace(c) && depth == 0) {
                if (item.length() > 0) {
                    items.add(item.toString());
                    item.setLength(0);
                }
                continue;
            }
            item.append(c);
        }
        if (item.length() > 0) {
            items.add(item.toString());
        }
        return List.copyOf(items);
    }

    /**
     * Parses one flag as written in a study.
     *
     * @return the flag, or empty when {@code text} is not a flag; {@link #problem(String)} says why
     */
    public static Optional<Flag> parse(String text) {
        return problem(text) == null ? Optional.of(split(text.strip())) : Optional.empty();
    }

    /**
     * Splits flags written on one line, as they follow the model in {@code vllm serve MODEL --a 1 --b=2 --c}, into one
     * string a flag, each for {@link #parse}: a word that does not start with a dash, or is a negative number, is the
     * value of the flag before it, or one more word of that value, as argparse reads {@code --name value}, a list's
     * {@code --name a b} and a JSON value written with spaces. Words are separated by whitespace; no shell quoting is
     * read, so a word of a value is kept as it is written and the words are joined by one space.
     *
     * @return the flags in their order; a first word that is no flag stands alone, for {@link #problem} to name
     */
    public static List<String> ofLine(String line) {
        List<String> flags = new ArrayList<>();
        for (String word : line.strip().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            boolean value = !word.startsWith("-") || NEGATIVE_NUMBER.matcher(word).matches();
            if (value && !flags.isEmpty() && flags.get(flags.size() - 1).startsWith("-")) {
                flags.set(flags.size() - 1, flags.get(flags.size() - 1) + " " + word);
            } else {
                flags.add(word);
            }
        }
        return List.copyOf(flags);
    }

    /** Why {@code text} is not a flag, or {@code null} when it is one. */
    public static String problem(String text) {
        if (text == null || text.isBlank()) {
            return "empty flag; expected \"--name\", \"--name=value\" or \"--name value\"";
        }
        String stripped = text.strip();
        if (!stripped.startsWith("-")) {
            return "malformed flag \"" + text + "\": expected it to start with '-' (\"--name\", \"--name=value\" or \"--name value\")";
        }
        Flag flag = split(stripped);
        String bare = flag.name.replaceFirst("^-+", "");
        if (bare.isEmpty() || !bare.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
            return "malformed flag \"" + text + "\": the name after the dashes must be letters, digits, '-', '_' or '.'";
        }
        if (flag.value != null && flag.value.isEmpty()) {
            return "malformed flag \"" + text + "\": '=' with no value; write \"" + flag.name + "\" for a switch";
        }
        // a command line pasted into one string: the engine's parser would read several flags, ServeBench one
        List<String> more = flag.values().stream().filter(w -> FLAG_WORD.matcher(w).matches())
                .map(w -> w.contains("=") ? w.substring(0, w.indexOf('=')) : w).toList();
        if (!more.isEmpty()) {
            return "\"" + stripped + "\" holds more than one flag (" + flag.name + ", " + String.join(", ", more)
                    + "); write each as a string of its own: " + String.join(", ",
                    ofLine(stripped).stream().map(f -> "\"" + f + "\"").toList());
        }
        return null;
    }

    private static Flag split(String stripped) {
        int eq = stripped.indexOf('=');
        int space = indexOfWhitespace(stripped);
        int cut = eq < 0 ? space : space < 0 ? eq : Math.min(eq, space);
        if (cut < 0) {
            return new Flag(normalize(stripped), null);
        }
        String value = stripped.charAt(cut) == '=' ? stripped.substring(cut + 1) : stripped.substring(cut + 1).strip();
        return new Flag(normalize(stripped.substring(0, cut)), value);
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static String normalize(String name) {
        int dashes = 0;
        while (dashes < name.length() && name.charAt(dashes) == '-') {
            dashes++;
        }
        // vLLM's --json-flag.key sets one key of a JSON flag: the key keeps its underscores
        int dot = name.indexOf('.');
        int end = dot < 0 ? name.length() : dot;
        return name.substring(0, dashes) + name.substring(dashes, end).replace('_', '-') + name.substring(end);
    }
}
