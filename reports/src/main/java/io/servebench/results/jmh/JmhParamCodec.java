package io.servebench.results.jmh;

import io.servebench.results.BlockResult;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * How ServeBench wrote block params as JMH params before it wrote axes ({@link JmhAxes}) and kept every param in
 * an object of its own, decoded so that files of then are still read and compared. Then every param was a JMH
 * param, encoded losslessly:
 * <ul>
 *   <li>The {@link BlockResult#FLAGS} value (arguments joined by spaces, each {@code --name=value}
 *       or {@code --name}) becomes one item per argument, joined by {@code ';'}: {@code --a=b} is
 *       written {@code a:b}, {@code --switch} is written {@code switch}; an argument that does not
 *       start with {@code --} keeps its dashes ({@code -x:1}). So
 *       {@code "--max-num-seqs=128 --enable-prefix-caching"} becomes
 *       {@code "max-num-seqs:128;enable-prefix-caching"}.</li>
 *   <li>In every value (each flag item's name and value included), {@code '%'}, {@code '='},
 *       {@code ';'} and whitespace are percent-encoded as UTF-8 bytes ({@code ' '} is {@code %20}).</li>
 * </ul>
 * The flags string is split into arguments at whitespace followed by {@code '-'}, so a flag value
 * may itself contain spaces as long as no space in it is followed by a dash.
 */
final class JmhParamCodec {

    private JmhParamCodec() {
    }

    /** A param value of an entry of the old layout, decoded. */
    public static String decode(String key, String encoded) {
        if (!BlockResult.FLAGS.equals(key)) {
            return unescape(encoded);
        }
        if (encoded.isEmpty()) {
            return "";
        }
        List<String> args = new ArrayList<>();
        for (String item : encoded.split(";", -1)) {
            int colon = item.indexOf(':');
            String name = unescape(colon < 0 ? item : item.substring(0, colon));
            String prefix = name.startsWith("-") ? "" : "--";
            args.add(colon < 0 ? prefix + name : prefix + name + "=" + unescape(item.substring(colon + 1)));
        }
        return String.join(" ", args);
    }

    private static String unescape(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            if (i + 2 >= s.length() || Character.digit(s.charAt(i + 1), 16) < 0 || Character.digit(s.charAt(i + 2), 16) < 0) {
                throw new IllegalArgumentException("bad percent escape at index " + i + " of \"" + s
                        + "\"; expected '%' followed by two hex digits");
            }
            bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
            i += 2;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
