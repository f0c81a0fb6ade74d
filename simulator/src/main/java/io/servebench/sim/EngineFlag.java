package io.servebench.sim;

/**
 * One flag as the simulated engine reads its command line: {@code --name=value}, {@code --name value} or a
 * switch {@code --name}. Names compare with {@code -} for {@code _}, as vLLM's and SGLang's argument parsers
 * accept both.
 *
 * @param name  the name with its leading dashes, {@code _} replaced by {@code -}
 * @param value the value, {@code null} for a switch
 */
record EngineFlag(String name, String value) {

    /**
     * @throws IllegalArgumentException when {@code text} does not start with {@code -} or names nothing
     */
    static EngineFlag parse(String text) {
        String s = text == null ? "" : text.strip();
        int dashes = 0;
        while (dashes < s.length() && s.charAt(dashes) == '-') {
            dashes++;
        }
        int cut = dashes;
        while (cut < s.length() && s.charAt(cut) != '=' && !Character.isWhitespace(s.charAt(cut))) {
            cut++;
        }
        if (dashes == 0 || cut == dashes) {
            throw new IllegalArgumentException("malformed flag \"" + text + "\": expected --name, --name=value or --name value");
        }
        String name = s.substring(0, dashes) + s.substring(dashes, cut).replace('_', '-');
        if (cut == s.length()) {
            return new EngineFlag(name, null);
        }
        return new EngineFlag(name, s.charAt(cut) == '=' ? s.substring(cut + 1) : s.substring(cut + 1).strip());
    }

    /** The flag as one argument, {@code --name=value} or {@code --name}. */
    String toArg() {
        return value == null ? name : name + "=" + value;
    }
}
