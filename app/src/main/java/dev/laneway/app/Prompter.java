package dev.laneway.app;

import java.io.Console;

/**
 * How {@code laneway init} asks its questions (docs/configuration.md §18.3): a line of text, or a
 * secret that is not echoed. The terminal's is {@link #console}; tests script the answers.
 */
interface Prompter {

    /** The answer to {@code question} (trimmed; empty for none), or null at the end of input. */
    String ask(String question);

    /** As {@link #ask}, without echoing what is typed. */
    String askSecret(String question);

    /** The terminal's, or null when there is none (input or output redirected). */
    static Prompter console() {
        Console console = System.console();
        if (console == null || !isTerminal(console)) {
            return null;
        }
        return new Prompter() {
            @Override
            public String ask(String question) {
                String line = console.readLine("%s", question);
                return line == null ? null : line.strip();
            }

            @Override
            public String askSecret(String question) {
                char[] typed = console.readPassword("%s", question);
                return typed == null ? null : new String(typed).strip();
            }
        };
    }

    /**
     * {@code Console.isTerminal()} where the JDK has it (22 and later, where a console exists even
     * for redirected streams); on 21, a console exists only on a terminal.
     */
    private static boolean isTerminal(Console console) {
        try {
            return (boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
