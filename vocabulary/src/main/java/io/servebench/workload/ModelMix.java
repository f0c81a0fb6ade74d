package io.servebench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The models or LoRA adapters a workload's requests name, each request drawing one: by the weights given
 * ({@code "sql-lora:3,chat-lora:1"}), uniformly, or by Zipf's law over the list's order ({@code zipf:S}: the k-th name
 * weighs {@code 1 / k^S}), as SGLang's {@code --lora-request-distribution} and vLLM's {@code --lora-modules} draw them.
 * A draw depends on the seed and the conversation alone, so that a repetition repeats it and timing does not.
 *
 * @param names   the names, in order
 * @param weights each name's weight, normalised to sum to 1
 * @param spec    the text it was read from, for plans and notes
 */
public record ModelMix(List<String> names, List<Double> weights, String spec) {

    private static final Pattern ENTRY = Pattern.compile("([^:,\\s]+)(?::([0-9]+(?:\\.[0-9]+)?))?");
    private static final Pattern DISTRIBUTION = Pattern.compile("weights|uniform|zipf(?::([0-9]+(?:\\.[0-9]+)?))?");

    public ModelMix {
        names = List.copyOf(names);
        weights = List.copyOf(weights);
    }

    /**
     * Reads {@code models} ({@code name[:weight],...}) drawn by {@code distribution} ({@code weights}, the default;
     * {@code uniform}; {@code zipf} or {@code zipf:S}, S 1 unless given).
     *
     * @throws IllegalArgumentException naming what is wrong and what was expected
     */
    public static ModelMix parse(String models, String distribution) {
        List<String> names = new ArrayList<>();
        List<Double> given = new ArrayList<>();
        for (String part : models.split(",")) {
            Matcher m = ENTRY.matcher(part.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException("models = \"" + models + "\": \"" + part.strip() + "\" is not a name "
                        + "with an optional weight; expected e.g. \"sql-lora:3,chat-lora:1\"");
            }
            if (names.contains(m.group(1))) {
                throw new IllegalArgumentException("models = \"" + models + "\" names " + m.group(1) + " twice");
            }
            names.add(m.group(1));
            given.add(m.group(2) == null ? 1.0 : Double.parseDouble(m.group(2)));
        }
        String d = distribution == null || distribution.isBlank() ? "weights" : distribution.strip().toLowerCase(Locale.ROOT);
        Matcher dm = DISTRIBUTION.matcher(d);
        if (!dm.matches()) {
            throw new IllegalArgumentException("modelDistribution = \"" + distribution + "\": expected weights, uniform "
                    + "or zipf (zipf:S for an exponent other than 1)");
        }
        List<Double> weights = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            weights.add(d.equals("weights") ? given.get(i) : d.equals("uniform") ? 1.0
                    : 1 / Math.pow(i + 1, dm.group(1) == null ? 1 : Double.parseDouble(dm.group(1))));
        }
        double sum = weights.stream().mapToDouble(Double::doubleValue).sum();
        if (!(sum > 0)) {
            throw new IllegalArgumentException("models = \"" + models + "\": the weights sum to 0; expected a positive weight");
        }
        return new ModelMix(names, weights.stream().map(w -> w / sum).toList(),
                models.strip() + (d.equals("weights") ? "" : " (" + d + ")"));
    }

    /** The name request {@code conversation} (its first turn's index) of the repetition seeded {@code seed} draws. */
    public String draw(long seed, int conversation) {
        double u = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + conversation * 0xC2B2AE3D27D4EB4FL).nextDouble();
        double cumulative = 0;
        for (int i = 0; i < names.size(); i++) {
            cumulative += weights.get(i);
            if (u < cumulative) {
                return names.get(i);
            }
        }
        return names.get(names.size() - 1);
    }
}
