package io.servebench.study;

import io.servebench.engine.kind.EngineSetup;
import io.servebench.flags.Flag;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules that turn a {@link StudyDescriptor} into what one variant runs: its engine, its flags,
 * its workload and the parameters it expands over. The planner calls these; the checker uses the
 * same rules, so what compiles is what runs.
 */
public final class Studies {

    /** {@code ${name}} in a flag; the group is the name. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");

    private Studies() {
    }

    /**
     * How the variant's engine is started: the class's setup, or what of it carries over to another
     * engine kind when the variant switches ({@link EngineSetup#forOtherKind()}).
     */
    public static EngineSetup effectiveSetup(StudyDescriptor study, VariantDescriptor variant) {
        return effectiveEngine(study, variant).equals(study.engineKind()) ? study.engineSetup()
                : study.engineSetup().forOtherKind();
    }

    /**
     * The engine kind the variant runs on: its own {@link VariantDescriptor#engine()} when set,
     * else the class's.
     */
    public static String effectiveEngine(StudyDescriptor study, VariantDescriptor variant) {
        return variant.engine().isEmpty() ? study.engineKind() : variant.engine();
    }

    /**
     * The flags the variant's engine is started with, placeholders not yet substituted: the
     * class's flags, then each of the variant's flags either replacing the flag of the same
     * {@link Flag#name()} in place or appended. When the variant switches to another engine kind
     * the class's flags are not inherited (they are in the other engine's dialect). A flag given
     * twice with one value counts once.
     *
     * @throws IllegalArgumentException when a flag is malformed ({@link StudyChecker} reports
     *                                  these before planning)
     */
    public static List<Flag> effectiveFlags(StudyDescriptor study, VariantDescriptor variant) {
        List<Flag> merged = new ArrayList<>();
        if (effectiveEngine(study, variant).equals(study.engineKind())) {
            for (String text : study.engineFlags()) {
                put(merged, parse(study, text));
            }
        }
        for (String text : variant.flags()) {
            put(merged, parse(study, text));
        }
        return List.copyOf(merged);
    }

    /** The variant's settings laid over the class's; unset settings stay {@code null}. */
    public static WorkloadOptions effectiveWorkload(StudyDescriptor study, VariantDescriptor variant) {
        return study.workload().overriddenBy(variant.workload());
    }

    /**
     * The parameters the variant expands over, in field declaration order: every workload
     * parameter ({@link ParamSpec#isWorkloadParam()}) and every other parameter that its
     * effective flags name as {@code ${name}}.
     */
    public static List<ParamSpec> paramsUsedBy(StudyDescriptor study, VariantDescriptor variant) {
        Set<String> named = new LinkedHashSet<>();
        for (Flag flag : effectiveFlags(study, variant)) {
            named.addAll(placeholders(flag.toArg()));
        }
        return study.params().stream().filter(p -> p.isWorkloadParam() || named.contains(p.name())).toList();
    }

    /** The names of the {@code ${name}} placeholders in {@code flagText}, in order of appearance. */
    public static List<String> placeholders(String flagText) {
        List<String> names = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(flagText);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /**
     * {@code flagText} with every {@code ${name}} replaced by {@code paramValues.get(name)}.
     *
     * @throws IllegalArgumentException when a placeholder names no key of {@code paramValues}
     */
    public static String substitute(String flagText, Map<String, String> paramValues) {
        Matcher m = PLACEHOLDER.matcher(flagText);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = paramValues.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("flag \"" + flagText + "\" names ${" + m.group(1)
                        + "} but no value was given for it; values were given for " + paramValues.keySet());
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static Flag parse(StudyDescriptor study, String text) {
        return Flag.parse(text).orElseThrow(() -> new IllegalArgumentException(
                study.className() + ": " + Flag.problem(text)));
    }

    private static void put(List<Flag> flags, Flag flag) {
        for (int i = 0; i < flags.size(); i++) {
            if (flags.get(i).name().equals(flag.name())) {
                flags.set(i, flag);
                return;
            }
        }
        flags.add(flag);
    }
}
