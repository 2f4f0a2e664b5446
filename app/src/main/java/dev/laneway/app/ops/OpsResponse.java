package dev.laneway.app.ops;

import java.nio.charset.StandardCharsets;

/** One HTTP answer of the ops server: status, content type, body. */
record OpsResponse(int status, String contentType, byte[] body) {

    static final String TEXT = "text/plain; charset=utf-8";

    static OpsResponse text(int status, String text) {
        return new OpsResponse(status, TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    static OpsResponse json(int status, Object value) {
        return new OpsResponse(status, Json.CONTENT_TYPE, Json.bytes(value));
    }
}
