package dev.laneway.app;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code laneway version}. */
@Command(name = "version", description = "Print the version.")
final class VersionCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.out.println(new Version().getVersion()[0]);
        return 0;
    }
}
