package dev.laneway.store.redis;

import dev.laneway.core.UrlRedactor;
import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which Redis and which fleet: {@code gateway.store.url} and {@code gateway.store.fleet}
 * (docs/configuration.md §4). The URL may carry a password ({@code redis://:secret@host:6379/0});
 * {@link #toString()} and {@link #redactedUrl()} never show it, so a target can be logged as is.
 *
 * @param url   {@code redis://} or {@code rediss://} (TLS), {@code [user[:password]@]host[:port][/db]}
 * @param fleet the fleet's name: every key this fleet writes starts with {@code laneway:{<fleet>}:}
 */
public record RedisTarget(URI url, String fleet) {

    /** What a fleet name may be: it goes into every key, between braces (a Redis Cluster hash tag). */
    public static final Pattern FLEET_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public static final int DEFAULT_PORT = 6379;

    public RedisTarget {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(fleet, "fleet");
        problem(url).ifPresent(problem -> {
            throw new IllegalArgumentException("gateway.store.url " + problem);
        });
        if (!FLEET_NAME.matcher(fleet).matches()) {
            throw new IllegalArgumentException("gateway.store.fleet " + fleetProblem(fleet));
        }
    }

    /** Parses and checks a URL and a fleet name ({@link IllegalArgumentException} says what is wrong). */
    public static RedisTarget of(String url, String fleet) {
        return new RedisTarget(URI.create(url), fleet);
    }

    /**
     * What is wrong with a Redis URL, if anything (the config binder reports it with the line):
     * the scheme, a missing host, a port or database number out of range, a query or fragment.
     */
    public static java.util.Optional<String> problem(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("redis") && !scheme.equals("rediss")) {
            return java.util.Optional.of("must be a redis:// or rediss:// URL");
        }
        if (url.getHost() == null || url.getHost().isEmpty()) {
            return java.util.Optional.of("must name a host (redis://host:6379)");
        }
        if (url.getRawQuery() != null || url.getRawFragment() != null) {
            return java.util.Optional.of("must not have a query or fragment (redis://[user:password@]host[:port][/db])");
        }
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        if (!path.isEmpty() && !path.equals("/") && !path.matches("/\\d{1,5}")) {
            return java.util.Optional.of("may only have a database number as its path (redis://host:6379/0)");
        }
        return java.util.Optional.empty();
    }

    /** Why a fleet name is not allowed. */
    public static String fleetProblem(String fleet) {
        return "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, got \""
                + fleet + "\"";
    }

    public String host() {
        return url.getHost();
    }

    public int port() {
        return url.getPort() < 0 ? DEFAULT_PORT : url.getPort();
    }

    public boolean tls() {
        return url.getScheme().equalsIgnoreCase("rediss");
    }

    /** The database number ({@code /2} in the URL), 0 when none. */
    public int database() {
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        return path.length() > 1 ? Integer.parseInt(path.substring(1)) : 0;
    }

    /** The user of {@code user:password@}, or null (the default user). */
    public String user() {
        String info = url.getUserInfo();
        if (info == null) {
            return null;
        }
        int colon = info.indexOf(':');
        String user = colon < 0 ? null : info.substring(0, colon);
        return user == null || user.isEmpty() ? null : user;
    }

    /** The password of {@code [user]:password@} (or a lone {@code password@}), or null. */
    public String password() {
        String info = url.getUserInfo();
        if (info == null) {
            return null;
        }
        int colon = info.indexOf(':');
        String password = colon < 0 ? info : info.substring(colon + 1);
        return password.isEmpty() ? null : password;
    }

    /** The URL with its credentials masked: what every message and log line shows. */
    public String redactedUrl() {
        return UrlRedactor.redact(url);
    }

    @Override
    public String toString() {
        return redactedUrl() + " (fleet " + fleet + ")";
    }
}
