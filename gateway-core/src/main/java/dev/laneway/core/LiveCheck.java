package dev.laneway.core;

import java.util.Objects;

/**
 * The answer to one live question about the set-up ("does Telegram accept this token?", "does the
 * model server serve this model?"), as {@code laneway doctor} and {@code laneway init} print it
 * (docs/configuration.md §18.2): what was found and, when it failed, what to do. Neither text ever
 * holds a secret.
 *
 * @param passed whether the check passed
 * @param detail what was found ("accepted: the bot @LanewayBot", "refused (401 Unauthorized)")
 * @param fix    what to do about a failure; empty when passed
 */
public record LiveCheck(boolean passed, String detail, String fix) {

    public LiveCheck {
        Objects.requireNonNull(detail, "detail");
        fix = fix == null ? "" : fix;
    }

    public static LiveCheck passed(String detail) {
        return new LiveCheck(true, detail, "");
    }

    public static LiveCheck failed(String detail, String fix) {
        return new LiveCheck(false, detail, fix);
    }

    /**
     * Why a request could not be made, in words: {@code connection refused}, {@code unknown host}, or
     * the innermost cause's message (the HTTP client wraps the useful part).
     */
    public static String reason(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (e instanceof java.net.ConnectException) {
                return "connection refused";
            }
            if (e instanceof java.net.UnknownHostException || e instanceof java.nio.channels.UnresolvedAddressException) {
                return "unknown host";
            }
        }
        Throwable root = error;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }

    /** {@code text} with every occurrence of {@code secret} masked (for what a server or exception says). */
    public static String mask(String text, String secret) {
        if (text == null) {
            return "";
        }
        return secret == null || secret.isEmpty() ? text : text.replace(secret, "***");
    }
}
