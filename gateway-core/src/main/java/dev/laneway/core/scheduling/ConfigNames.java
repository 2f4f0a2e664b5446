package dev.laneway.core.scheduling;

import java.util.Locale;

/**
 * The configuration names of this package's enums: the constant's name in lower case
 * ({@code INTERACTIVE} is {@code interactive}), and back. Stateless.
 */
final class ConfigNames {

    private ConfigNames() {
    }

    static String of(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** The constant of {@code values} whose configuration name is {@code name}, or null. */
    static <E extends Enum<E>> E find(E[] values, String name) {
        for (E value : values) {
            if (of(value).equals(name)) {
                return value;
            }
        }
        return null;
    }
}
