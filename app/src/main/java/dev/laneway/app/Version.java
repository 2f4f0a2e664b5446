package dev.laneway.app;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest ({@code dev} when run from classes). */
public final class Version implements IVersionProvider {

    public static String current() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"laneway " + current() + " (Java " + Runtime.version() + ")"};
    }
}
