package dev.laneway.core.channel;

import java.net.URI;
import java.util.Map;
import java.util.Objects;

/**
 * Where an attachment's content can be downloaded right now (docs/behaviour.md §15.1): an HTTP(S) URL
 * and the headers the request needs (Slack's bot token). The URL and headers are secrets (a Telegram
 * file URL holds the bot token, a Discord CDN URL is signed): {@link #toString} shows neither.
 *
 * @param url       the URL to GET
 * @param headers   request headers (may hold a token)
 * @param shareable whether the URL works for anyone without a secret of ours, so it may be handed to a
 *                  model provider as is (a Discord CDN URL; not a Telegram file URL, which holds the
 *                  bot token, nor Slack's, which needs it)
 */
public record FileLocation(URI url, Map<String, String> headers, boolean shareable) {

    public FileLocation {
        Objects.requireNonNull(url, "url");
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    @Override
    public String toString() {
        return "FileLocation[" + url.getScheme() + "://" + url.getHost() + "/…, " + headers.size() + " header(s)]";
    }
}
