package dev.laneway.app.ops;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * {@code gateway.http.adminToken}, checked against a request's {@code Authorization: Bearer <token>}
 * header in constant time: both sides are hashed (SHA-256) and the digests compared with
 * {@link MessageDigest#isEqual}, so neither the content nor the length of the token leaks through
 * timing. Keeps only the digest; never logs or shows either token. Immutable.
 */
final class AdminToken {

    /** What a request's header proved. */
    enum Check {
        /** The right token. */
        GRANTED,
        /** No {@code Authorization: Bearer} header. */
        MISSING,
        /** A token, not the right one. */
        WRONG,
        /** No token is configured: admin actions are off. */
        OFF
    }

    static final AdminToken NONE = new AdminToken(null);

    private static final String BEARER = "Bearer ";

    private final byte[] digest; // null: no token configured

    private AdminToken(byte[] digest) {
        this.digest = digest;
    }

    /** @param token the configured token; empty or null: admin actions are off */
    static AdminToken of(String token) {
        return token == null || token.isEmpty() ? NONE : new AdminToken(sha256(token));
    }

    boolean configured() {
        return digest != null;
    }

    /** @param authorization the request's {@code Authorization} header, or null */
    Check check(String authorization) {
        if (digest == null) {
            return Check.OFF;
        }
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Check.MISSING;
        }
        byte[] given = sha256(authorization.substring(BEARER.length()).strip());
        return MessageDigest.isEqual(given, digest) ? Check.GRANTED : Check.WRONG;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return digest == null ? "" : "***";
    }
}
