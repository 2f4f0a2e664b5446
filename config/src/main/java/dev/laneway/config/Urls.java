package dev.laneway.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads URL-valued keys: absolute, with a host, and one of the allowed schemes. Messages quote the
 * value with its credentials masked.
 */
final class Urls {

    static final List<String> HTTP = List.of("http", "https");
    static final List<String> WEBSOCKET = List.of("ws", "wss");

    private Urls() {
    }

    static URI url(Section section, String key, URI defaultValue, List<String> schemes) {
        String text = section.string(key, null);
        if (text == null) {
            return defaultValue;
        }
        URI uri = parse(text.trim());
        if (uri == null || !schemes.contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
            section.problem(key, "must be an absolute " + String.join(" or ", schemes)
                    + " URL, got " + YamlNode.quote(text));
            return defaultValue;
        }
        return uri;
    }

    /**
     * As {@link #url}, for a server named by its root alone: {@code scheme://host[:port]}, no user
     * info, path, query or fragment; {@code why} says what builds the paths instead.
     */
    static URI serverRoot(Section section, String key, URI defaultValue, List<String> schemes, String why) {
        URI uri = url(section, key, null, schemes);
        if (uri == null) {
            return defaultValue;
        }
        Optional<String> problem = rootProblem(uri, why);
        problem.ifPresent(message -> section.problem(key, message));
        return problem.isEmpty() ? uri : defaultValue;
    }

    /** What keeps {@code uri} from being a bare {@code scheme://host[:port]}, if anything. */
    static Optional<String> rootProblem(URI uri, String why) {
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        boolean bare = uri.getRawUserInfo() == null && (path.isEmpty() || path.equals("/"))
                && uri.getRawQuery() == null && uri.getRawFragment() == null;
        return bare ? Optional.empty() : Optional.of("must be scheme://host[:port] without user info, path, query or"
                + " fragment (" + why + "), got " + YamlNode.quote(uri.toString()));
    }

    private static URI parse(String text) {
        try {
            URI uri = new URI(text);
            return uri.isAbsolute() && uri.getHost() != null ? uri : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
