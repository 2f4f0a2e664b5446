package dev.laneway.config;

import java.net.URI;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * {@code channels.telegram.webhook:} with {@code mode: webhook} (docs/configuration.md,
 * docs/behaviour.md §17 "Ingress"): Telegram posts each update to {@code url} (the load balancer's
 * public address, registered with {@code setWebhook} at start); every instance listens on
 * {@code listenHost:listenPort} at {@code path} and takes a request only with the
 * {@code X-Telegram-Bot-Api-Secret-Token} header equal to {@code secretToken}.
 *
 * @param url         the public https URL Telegram posts to
 * @param listenHost  the address this instance binds
 * @param listenPort  its port (0: any free port, for tests)
 * @param path        the request path taken, starting with {@code /}
 * @param secretToken 1-256 of {@code A-Z a-z 0-9 _ -} (Telegram's rule); never printed
 */
public record TelegramWebhook(URI url, String listenHost, int listenPort, String path, Secret secretToken) {

    public static final String DEFAULT_LISTEN = "0.0.0.0:8443";
    public static final String DEFAULT_PATH = "/telegram";
    private static final Pattern SECRET = Pattern.compile("[A-Za-z0-9_-]{1,256}");

    public TelegramWebhook {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(listenHost, "listenHost");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(secretToken, "secretToken");
        if (listenPort < 0 || listenPort > 65_535) {
            throw new IllegalArgumentException("channels.telegram.webhook.listen: port must be 0-65535, got " + listenPort);
        }
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("channels.telegram.webhook.path must start with /, got " + path);
        }
        if (!secretTokenProblem(secretToken).isEmpty()) {
            throw new IllegalArgumentException("channels.telegram.webhook.secretToken " + secretTokenProblem(secretToken));
        }
    }

    /** Empty when Telegram accepts it as a secret token; otherwise what is wrong (without the value). */
    static String secretTokenProblem(Secret secret) {
        if (secret.isEmpty()) {
            return "is required with mode: webhook (set TELEGRAM_WEBHOOK_SECRET)";
        }
        return SECRET.matcher(secret.value()).matches() ? ""
                : "must be 1-256 characters of A-Z, a-z, 0-9, _ and - (Telegram's rule), got "
                        + secret.value().length() + " characters";
    }
}
