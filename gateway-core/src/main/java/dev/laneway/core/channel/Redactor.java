package dev.laneway.core.channel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Takes a channel's secrets (its tokens) out of text before it is logged or carried in an
 * exception: some servers echo the token they refused in their error description, and a proxy may
 * put the request URL (where Telegram's token lives) into its error page. Every platform error a
 * channel logs or throws goes through its redactor. Longer secrets are replaced first, so a secret
 * that contains another one is never left half-masked.
 *
 * <p>Immutable; safe for concurrent use.
 */
public final class Redactor {

    /** What a secret is replaced with. */
    public static final String MASK = "***";
    /** A redactor with no secrets: text passes unchanged. */
    public static final Redactor NONE = new Redactor(List.of());

    private final List<String> secrets;

    private Redactor(List<String> secrets) {
        this.secrets = secrets;
    }

    /** A redactor for {@code secrets}; null and empty ones are ignored. */
    public static Redactor of(String... secrets) {
        List<String> kept = new ArrayList<>();
        for (String secret : secrets) {
            if (secret != null && !secret.isEmpty() && !kept.contains(secret)) {
                kept.add(secret);
            }
        }
        kept.sort(Comparator.comparingInt(String::length).reversed());
        return new Redactor(List.copyOf(kept));
    }

    /** {@code text} with every secret replaced by {@link #MASK}; null stays null. */
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        String result = text;
        for (String secret : secrets) {
            result = result.replace(secret, MASK);
        }
        return result;
    }

    /**
     * A failure as one line for a log or a new exception's message: the exception and, when it
     * differs, its root cause (which SDK wrappers tend to hide), redacted.
     */
    public String describe(Throwable failure) {
        if (failure == null) {
            return "null";
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root == failure ? failure.toString() : failure + " (cause: " + root + ")";
        return redact(text);
    }
}
