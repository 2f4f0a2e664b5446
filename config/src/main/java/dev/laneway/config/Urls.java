package dev.laneway.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/** Reads URL-valued keys: absolute, with a host, and one of the allowed schemes. */
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

    private static URI parse(String text) {
        try {
            URI uri = new URI(text);
            return uri.isAbsolute() && uri.getHost() != null ? uri : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
