package io.servebench.engine.kind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Hides secrets in what ServeBench writes down: engine command lines and environments end up in logs,
 * the journal and reports, and must not carry API keys or tokens.
 */
public final class Redaction {

    /** What a secret is replaced with. */
    public static final String MASK = "***";

    /**
     * Names of flags and environment variables whose values are secrets: those whose last word is one of
     * these ({@code --api-key}, {@code HF_TOKEN}, {@code AWS_SECRET_ACCESS_KEY}), and not names that merely
     * contain one ({@code --max-num-batched-tokens}, {@code --tokenizer}).
     */
    private static final Pattern SECRET_NAME = Pattern.compile("(?i)(.*[-_.])?(key|token|secret|password|passwd|credentials?)");

    private Redaction() {
    }

    /** Whether a flag or variable of this name holds a secret, e.g. {@code --api-key}, {@code HF_TOKEN}. */
    public static boolean isSecretName(String name) {
        return SECRET_NAME.matcher(name.replaceFirst("^-+", "")).matches();
    }

    /**
     * The argument list with the values of secret flags masked: {@code --api-key=abc} and the argument
     * after a bare {@code --api-key} become {@value #MASK}, as do {@code NAME=value} arguments (e.g.
     * {@code docker run -e HF_TOKEN=...}) whose name is a secret's.
     */
    public static List<String> args(List<String> args) {
        List<String> out = new ArrayList<>(args.size());
        boolean maskNext = false;
        for (String arg : args) {
            if (maskNext) {
                out.add(MASK);
                maskNext = false;
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (isSecretName(name) && (arg.startsWith("-") || eq > 0)) {
                if (eq < 0) {
                    out.add(arg);
                    maskNext = arg.startsWith("-");
                } else {
                    out.add(name + "=" + MASK);
                }
            } else {
                out.add(arg);
            }
        }
        return out;
    }

    /** The environment with secret variables' values masked. */
    public static Map<String, String> env(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((k, v) -> out.put(k, isSecretName(k) ? MASK : v));
        return out;
    }

    /**
     * The secrets themselves that {@link #args} and {@link #env} mask, so that text a program wrote with them (an
     * engine that logs its own settings, as SGLang's {@code server_args=ServerArgs(..., api_key='...')} does) can be
     * masked too ({@link #text}).
     */
    public static List<String> values(List<String> args, Map<String, String> env) {
        List<String> secrets = new ArrayList<>();
        List<String> masked = args(args);
        for (int i = 0; i < args.size(); i++) {
            if (!args.get(i).equals(masked.get(i))) {
                String arg = args.get(i);
                secrets.add(masked.get(i).equals(MASK) ? arg : arg.substring(arg.indexOf('=') + 1));
            }
        }
        env.forEach((k, v) -> {
            if (isSecretName(k)) {
                secrets.add(v);
            }
        });
        return secrets;
    }

    /** {@code text} with every occurrence of each of {@code secrets} (blank ones aside) masked. */
    public static String text(String text, java.util.Collection<String> secrets) {
        String out = text;
        for (String secret : secrets) {
            if (secret != null && !secret.isBlank()) {
                out = out.replace(secret, MASK);
            }
        }
        return out;
    }
}
