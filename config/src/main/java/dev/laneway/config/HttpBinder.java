package dev.laneway.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Binds {@code gateway.http}: the ops endpoint's switch, address, port and admin token. An endpoint
 * reachable from other machines (a {@code bind} that is not a loopback address) needs the admin
 * token, so {@code laneway validate} and start-up refuse it without one (docs/configuration.md §4,
 * docs/behaviour.md §18).
 */
final class HttpBinder {

    /** The shortest admin token accepted: guessing it must be hopeless. */
    static final int MIN_TOKEN_LENGTH = 16;

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private HttpBinder() {
    }

    /** @param http the section read as {@link ConfigKeys#HTTP_SERVER} */
    static GatewayConfig.Http bind(Section http) {
        KeySpec.Obj spec = ConfigKeys.HTTP_SERVER;
        boolean enabled = http.bool(spec.leaf("enabled"));
        String bind = ConfigBinder.nonBlank(http, "bind", (String) spec.leaf("bind").defaultValue());
        int port = http.integer(spec.leaf("port"));
        Secret token = new Secret(http.string("adminToken", "").strip());
        if (!token.isEmpty() && token.value().length() < MIN_TOKEN_LENGTH) {
            http.problem("adminToken", "must be at least " + MIN_TOKEN_LENGTH + " characters long (it has "
                    + token.value().length() + "); generate one with: openssl rand -hex 24");
        } else if (!token.isEmpty() && !token.value().chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            http.problem("adminToken", "must be printable ASCII without spaces (it is sent as an HTTP header)");
        }
        if (enabled && token.isEmpty() && !isLoopback(bind)) {
            http.problem("bind", "is " + bind + ", not a loopback address: the ops endpoint would be reachable from"
                    + " other machines, so it needs gateway.http.adminToken (e.g. adminToken: ${LANEWAY_ADMIN_TOKEN},"
                    + " at least " + MIN_TOKEN_LENGTH + " characters); set it, or bind 127.0.0.1");
        }
        return new GatewayConfig.Http(enabled, bind, port, token);
    }

    /**
     * Whether {@code bind} is a loopback address, decided without a DNS lookup: {@code localhost},
     * {@code 127.x.x.x} and {@code ::1} are; every other name or address is not (a host name may
     * resolve to anything).
     */
    static boolean isLoopback(String bind) {
        String host = bind.strip().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.equals("localhost")) {
            return true;
        }
        if (IPV4.matcher(host).matches()) {
            return host.startsWith("127.");
        }
        return host.equals("::1") || host.equals("0:0:0:0:0:0:0:1");
    }
}
