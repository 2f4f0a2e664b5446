package dev.laneway.app;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the CLI with its output captured (no jar, no process). */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.cli().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)).execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
