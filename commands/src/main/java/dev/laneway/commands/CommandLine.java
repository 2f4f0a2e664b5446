package dev.laneway.commands;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A message that starts with a slash word: {@code /Stop@MyBot now} has name {@code stop} and
 * arguments {@code " now"}.
 *
 * @param name      the command word without the slash and the {@code @bot} suffix, lower case
 * @param arguments everything after the command word, verbatim
 */
record CommandLine(String name, String arguments) {

    /** The command in {@code text}, or empty when the text does not start with a slash word. */
    static Optional<CommandLine> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        List<Token> tokens = Token.split(text);
        if (tokens.isEmpty() || !tokens.getFirst().raw().startsWith("/")) {
            return Optional.empty();
        }
        Token word = tokens.getFirst();
        String name = word.raw().substring(1);
        int at = name.indexOf('@');
        if (at >= 0) {
            name = name.substring(0, at);
        }
        if (name.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CommandLine(name.toLowerCase(Locale.ROOT), text.substring(word.end())));
    }
}
