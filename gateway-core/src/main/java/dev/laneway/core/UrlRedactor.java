package dev.laneway.core;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;

/**
 * Hides the credentials a URL can carry before it is printed or logged: the user info
 * ({@code https://user:key@host} becomes {@code https://***@host}) and the values of query or
 * fragment parameters whose name says they are secret ({@code ?key=}, {@code token=},
 * {@code access_token=}, {@code password=}, {@code sig=} ...). Works on text that is not a valid URL
 * too, erring on the side of hiding more: a value that failed validation is exactly the one an
 * error message echoes.
 */
public final class UrlRedactor {

    public static final String MASK = "***";

    /** A parameter whose name contains one of these words has its value masked. */
    private static final Pattern SECRET_PARAMETER = Pattern.compile(
            "(?i)([?&#;][^=&#;\\s]*(?:key|token|secret|pass|pwd|auth|sig|credential)[^=&#;\\s]*=)[^&#;\\s]*");

    private UrlRedactor() {
    }

    /** The URL with its credentials masked; null stays null. */
    public static String redact(URI url) {
        return url == null ? null : redact(url.toString());
    }

    /** The URL text with its credentials masked; text without any is returned unchanged. */
    public static String redact(String url) {
        if (url == null || url.isEmpty()) {
            return url;
        }
        String withoutUser = userInfoMasked(url);
        return SECRET_PARAMETER.matcher(withoutUser).replaceAll("$1" + MASK);
    }

    /**
     * Masks the user info. A URL with a server authority has it exactly where the parser says;
     * otherwise everything between {@code ://} (or the start, for text like
     * {@code user:key@host}) and the last {@code @} is masked, since the password may hold the
     * very characters ({@code / ? #}) that stopped it parsing.
     */
    private static String userInfoMasked(String url) {
        int scheme = url.indexOf("://");
        int start = scheme < 0 ? 0 : scheme + 3;
        try {
            URI uri = new URI(url);
            if (uri.getHost() != null && scheme >= 0) {
                String userInfo = uri.getRawUserInfo();
                return userInfo == null ? url : url.substring(0, start) + MASK + url.substring(start + userInfo.length());
            }
        } catch (URISyntaxException e) {
            // not a valid URL: fall through to the cautious rule
        }
        int at = url.lastIndexOf('@');
        if (at < start || scheme < 0 && !looksLikeCredentials(url, at)) {
            return url;
        }
        return url.substring(0, start) + MASK + url.substring(at);
    }

    /** Scheme-less text: {@code user:key@host} is masked, an e-mail address or a sentence is not. */
    private static boolean looksLikeCredentials(String text, int at) {
        return text.chars().noneMatch(Character::isWhitespace) && text.lastIndexOf(':', at) > 0;
    }
}
