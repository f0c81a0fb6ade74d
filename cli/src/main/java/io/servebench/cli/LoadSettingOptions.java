package io.servebench.cli;

import io.servebench.study.StudyChecker;
import io.servebench.study.WorkloadOptions;
import io.servebench.workload.DatasetKind;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;
import picocli.CommandLine.Model.OptionSpec;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The workload settings on the command line, derived from their one home ({@link WorkloadSetting}, then every
 * {@link LoadOption}): what each takes in words, which the main help's list of {@code -p}'s settings and {@code run}'s
 * options both say, and {@code run}'s option for each, named by its key in kebab case ({@code --max-concurrency} for
 * {@code maxConcurrency}).
 */
final class LoadSettingOptions {

    private LoadSettingOptions() {
    }

    /** What {@code setting} takes, in words, with its default where it has one. */
    static String takes(WorkloadSetting setting) {
        return switch (setting) {
            case DATASET -> "its kind one of " + String.join(", ", Arrays.stream(DatasetKind.values())
                    .map(DatasetKind::id).toList()) + ", with the kind's options (docs/writing-studies.md); default "
                    + WorkloadOptions.DEFAULTS.dataset();
            case PROFILE -> "one of " + String.join(", ", StudyChecker.PROFILES) + "; default "
                    + WorkloadOptions.DEFAULTS.profile();
            case REQUESTS -> setting.expected() + "; default " + WorkloadOptions.DEFAULTS.requests();
            case WARMUP -> setting.expected() + "; default " + WorkloadOptions.DEFAULTS.warmup();
            case RATE, CONCURRENCY -> setting.expected();
        };
    }

    /**
     * The option's names: {@code --} and its key in kebab case, then the older spelling {@code run} took before it took
     * every setting ({@code --duration}), which recorded command lines name and {@code --resume} reads.
     */
    static String[] names(String key) {
        String name = "--" + key.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
        return key.equals(LoadOption.DURATION_SECONDS.key()) ? new String[] {"--duration", name} : new String[] {name};
    }

    /**
     * {@code run}'s option for {@code setting}, which takes what {@code takes} says: a list, split at commas, for the two
     * that span a load axis (rate and concurrency, one block each), else one value.
     */
    static OptionSpec option(WorkloadSetting setting, String takes) {
        boolean axis = setting == WorkloadSetting.RATE || setting == WorkloadSetting.CONCURRENCY;
        OptionSpec.Builder option = OptionSpec.builder(names(setting.key()))
                .description(sentence(setting.meaning(), takes))
                .paramLabel(switch (setting) {
                    case DATASET -> "SPEC";
                    case PROFILE -> "NAME";
                    case RATE -> "R";
                    case CONCURRENCY, REQUESTS, WARMUP -> "N";
                });
        if (setting == WorkloadSetting.PROFILE) {
            option.completionCandidates(StudyChecker.PROFILES);
        }
        return (axis ? option.type(List.class).auxiliaryTypes(String.class).splitRegex(",") : option.type(String.class))
                .build();
    }

    /** {@code run}'s option for {@code option}: one value, commas and all, checked by {@link LoadOption#problem}. */
    static OptionSpec option(LoadOption option) {
        return OptionSpec.builder(names(option.key())).type(String.class).paramLabel(option.valueLabel())
                .description(sentence(option.meaning(), option.expected())).build();
    }

    /** A help entry: what it does, capitalised, then what it takes; picocli formats it, so a {@code %} is doubled. */
    private static String sentence(String meaning, String takes) {
        return (Character.toUpperCase(meaning.charAt(0)) + meaning.substring(1) + ": " + takes + ".").replace("%", "%%");
    }
}
