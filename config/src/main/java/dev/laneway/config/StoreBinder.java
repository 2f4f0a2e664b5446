package dev.laneway.config;

import dev.laneway.config.GatewayConfig.Store;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code gateway.store:} which store the gateway runs on (docs/configuration.md §4): {@code kind:
 * sqlite} (the default, in {@code gateway.dataDir}) or {@code kind: redis} with its {@code url} and
 * the {@code fleet} name. The URL rules are the Redis store's ({@code RedisTarget}), so a file
 * {@code validate} accepts opens; values are quoted with their credentials masked.
 */
final class StoreBinder {

    /** A fleet name: it goes into every Redis key, between braces. */
    static final Pattern FLEET_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private StoreBinder() {
    }

    static Store bind(Section store) {
        Store.Kind kind = store.choice(ConfigKeys.STORE.leaf("kind"), Store.Kind.SQLITE, StoreBinder::kind);
        if (kind == Store.Kind.SQLITE) {
            for (String key : List.of("url", "fleet")) {
                if (store.has(key)) {
                    store.problemAtKey(key, "is only used with kind: redis (the SQLite store lives in gateway.dataDir)");
                }
            }
            return Store.DEFAULTS;
        }
        URI url = url(store);
        String fleet = ConfigBinder.nonBlank(store, "fleet", null);
        if (fleet == null) {
            if (!store.has("fleet")) {
                store.problem("fleet", "is required with kind: redis: the name of this gateway's fleet, in every key"
                        + " it writes (e.g. fleet: support-bot); a Redis holding another fleet's keys is refused");
            }
            fleet = "invalid";
        } else if (!FLEET_NAME.matcher(fleet).matches()) {
            store.problem("fleet", "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or"
                    + " digit, got " + YamlNode.quote(fleet));
            fleet = "invalid";
        }
        return new Store(kind, url == null ? Store.DEFAULT_URL : url, fleet);
    }

    private static Optional<Store.Kind> kind(String raw) {
        return Optional.ofNullable(switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "sqlite" -> Store.Kind.SQLITE;
            case "redis" -> Store.Kind.REDIS;
            default -> null;
        });
    }

    /** {@code redis://} or {@code rediss://}, a host, an optional port and database number, nothing else. */
    private static URI url(Section store) {
        String text = ConfigBinder.nonBlank(store, "url", null);
        if (text == null) {
            return null;
        }
        Optional<String> problem = problem(text.trim());
        if (problem.isPresent()) {
            store.problem("url", problem.get() + ", got " + YamlNode.quote(text));
            return null;
        }
        return URI.create(text.trim());
    }

    static Optional<String> problem(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return Optional.of("must be a URL like redis://[user:password@]host[:port][/db]");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("redis") && !scheme.equals("rediss")) {
            return Optional.of("must be a redis:// or rediss:// URL");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            return Optional.of("must name a host (redis://host:6379)");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            return Optional.of("must not have a query or fragment (redis://[user:password@]host[:port][/db])");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (!path.isEmpty() && !path.equals("/") && !path.matches("/\\d{1,5}")) {
            return Optional.of("may only have a database number as its path (redis://host:6379/0)");
        }
        return Optional.empty();
    }
}
