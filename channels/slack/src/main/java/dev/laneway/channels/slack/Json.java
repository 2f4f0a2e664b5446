package dev.laneway.channels.slack;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/** Null-tolerant reads from the Gson trees the SDK hands out for envelope payloads. */
final class Json {

    private Json() {
    }

    /** The string at {@code key}, or null when it is missing, null or not a primitive. */
    static String str(JsonObject object, String key) {
        JsonElement value = object == null ? null : object.get(key);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
    }

    /** The object at {@code key}, or null. */
    static JsonObject obj(JsonObject object, String key) {
        JsonElement value = object == null ? null : object.get(key);
        return value != null && value.isJsonObject() ? value.getAsJsonObject() : null;
    }

    /** The object itself when {@code element} is one, else null. */
    static JsonObject asObject(JsonElement element) {
        return element != null && element.isJsonObject() ? element.getAsJsonObject() : null;
    }
}
