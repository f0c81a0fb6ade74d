package io.servebench.execution;

/** The harness's version, from the jar manifest when built, for environment records and reports. */
public final class ServeBenchVersion {

    private ServeBenchVersion() {
    }

    public static String get() {
        String version = ServeBenchVersion.class.getPackage().getImplementationVersion();
        return version != null ? version : "dev";
    }
}
