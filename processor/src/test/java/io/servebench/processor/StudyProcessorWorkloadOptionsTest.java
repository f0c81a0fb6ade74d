package io.servebench.processor;

import org.junit.jupiter.api.Test;


import static io.servebench.processor.InMemoryCompiler.BASELINE;
import static io.servebench.processor.InMemoryCompiler.assertOneError;
import static io.servebench.processor.InMemoryCompiler.compile;
import static io.servebench.processor.InMemoryCompiler.study;
import static io.servebench.processor.InMemoryCompiler.lineOf;
import static org.assertj.core.api.Assertions.assertThat;

/** The processor's checks of the load options of {@code @Workload}: each error on the line of the value at fault. */
class StudyProcessorWorkloadOptionsTest {




    @Test
    void aValidStudyUsingEveryOptionCompilesCleanly() {
        InMemoryCompiler.Result clean = compile(study("""
                @Workload(profile = Profile.GAMMA, rate = 4, burstiness = 0.5, rampUpSeconds = 10, maxConcurrency = 8,
                          durationSeconds = 60, maxErrors = 5, warmupSeconds = 2, api = "completions",
                          extraBody = "{\\"temperature\\": 0}", continuousUsage = "false")""", BASELINE));
        assertThat(clean.errorMessages()).as(clean.log()).isEmpty();
    }

    @Test
    void anOptionInheritedFromTheClassThatMisfitsAVariantsProfileIsReportedOnTheClassValue() {
        String source = study("""
                @Workload(profile = Profile.GAMMA,
                          burstiness = 0.5)""",
                BASELINE + "    @Variant @Workload(profile = Profile.SWEEP, sweepRates = 3) public void sweep() {}\n");
        assertOneError(source, "burstiness applies only to profile gamma, but the profile is sweep", "burstiness = 0.5");
    }

    @Test
    void burstinessMustBePositive() {
        String source = study("""
                @Workload(profile = Profile.GAMMA,
                          burstiness = 0)""", BASELINE);
        assertOneError(source, "burstiness = 0 is out of range; expected a positive gamma shape", "burstiness = 0)");
    }

    @Test
    void extraBodyMustBeAJsonObject() {
        String source = study("""
                @Workload(
                    extraBody = "[1, 2]")""", BASELINE);
        assertOneError(source, "extraBody is a JSON array; expected a JSON object", "extraBody =");
    }

    @Test
    void extraBodyMayNotSetWhatTheClientControls() {
        String source = study("@Workload(extraBody = \"{\\\"stream\\\": false}\")", BASELINE);
        assertOneError(source, "extraBody sets [stream], which the client controls", "extraBody =");
    }

    @Test
    void sweepWithoutSweepRatesIsReportedOnTheProfile() {
        String source = study("", BASELINE.replace("@Variant public", "@Variant\n    @Workload(\n        profile = Profile.SWEEP)\n    public"));
        assertOneError(source, "profile sweep needs sweepRates", "profile = Profile.SWEEP");
    }

    @Test
    void unknownApiAndNonBooleanContinuousUsage() {
        InMemoryCompiler.Result result = compile(study("""
                @Workload(api = "responses",
                          continuousUsage = "yes")""", BASELINE));
        assertThat(result.errorMessages()).as(result.log()).hasSize(2);
        assertThat(result.errorMessages().get(0)).contains("api = \"responses\" is unknown; expected chat or completions");
        assertThat(result.errorMessages().get(1)).contains("continuousUsage = \"yes\" is neither true nor false");
    }

    @Test
    void anExplicitMinusOneIsOutOfRangeAndSaysHowToInherit() {
        String source = study("""
                @Workload(
                    maxConcurrency = -1)""", BASELINE);
        assertOneError(source, "maxConcurrency = -1 is out of range; expected a positive number of requests in flight"
                + " (-1 stands for \"not set\" only where the setting is left out", "maxConcurrency = -1");
    }

    @Test
    void maxConcurrencyOnAClosedLoopProfileIsReportedOnTheMethodThatSetsIt() {
        String source = study("@Workload(profile = Profile.CONCURRENT, concurrency = 4)",
                BASELINE.replace("@Variant public", "@Variant\n    @Workload(\n        maxConcurrency = 2)\n    public"));
        assertOneError(source, "maxConcurrency caps open-loop profiles, but concurrent is closed loop", "maxConcurrency = 2");
    }

    @Test
    void warmupSecondsWithThroughputIsRefused() {
        String source = study("""
                @Workload(profile = Profile.THROUGHPUT,
                          warmupSeconds = 3)""", BASELINE);
        assertOneError(source, "warmupSeconds needs a profile that spreads requests over time", "warmupSeconds = 3");
    }

    /** A rate beside streams, or either with a profile that ignores it, on the attribute at fault, one annotation at a time. */
    @Test
    void aRateAndStreamsTogetherOrWithAProfileThatIgnoresThemAreRefused() {
        assertOneError(study("""
                @Workload(rate = 4,
                          concurrency = 8)""", BASELINE), "rate and concurrency are two kinds of load",
                "concurrency = 8)");
        assertOneError(study("""
                @Workload(profile = Profile.POISSON,
                          concurrency = 8)""", BASELINE), "concurrency is the concurrent profile's number of streams,"
                + " and profile poisson would ignore it", "concurrency = 8)");
        assertOneError(study("""
                @Workload(profile = Profile.SYNCHRONOUS,
                          rate = 2)""", BASELINE), "profile synchronous sends no requests at a rate", "rate = 2)");
        // a variant's closed loop replaces its class's rate: each annotation is one load
        assertThat(compile(study("@Workload(rate = 8)", BASELINE + """
                    @Variant @Workload(profile = Profile.CONCURRENT, concurrency = 4) public void closedLoop() {}
                """)).errorMessages()).isEmpty();
    }
}
