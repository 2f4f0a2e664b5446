package dev.laneway.channels.telegram;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.telegram.telegrambots.meta.api.methods.updates.GetUpdates;
import org.telegram.telegrambots.meta.api.objects.Update;
import org.telegram.telegrambots.meta.exceptions.TelegramApiRequestException;

/**
 * Keeps one unreadable update from wedging the bot. The SDK reads a {@code getUpdates} answer in
 * one piece: if a single update does not fit its model (say a field of an unexpected JSON type),
 * the whole batch fails, the SDK backs off and asks for the same offset again, forever, and the bot
 * answers no one. This OkHttp application interceptor, on the polling client only, reads each
 * {@code getUpdates} answer first and binds every element of {@code result} exactly as the SDK will,
 * through {@link GetUpdates#deserializeResponse}: the SDK reads answers with a static mapper of its
 * own, not the one the channel hands it (that one only writes requests), so binding with the
 * channel's mapper could disagree with it one day. The mapper given here only parses and rewrites
 * the JSON tree. An element that fails
 * is replaced by its bare {@code {"update_id": N}}: the SDK still moves its offset past it, and
 * {@link UpdateConverter} skips it as an update without a message. One WARN line names the update
 * and what was wrong.
 *
 * <p>Everything else passes unchanged: other methods, error statuses, a body that is not JSON or
 * has no {@code result} array (the SDK's normal error and backoff path). An element without a
 * usable {@code update_id} cannot be stepped over, since its offset is unknown; the poll then fails
 * as an I/O error, which the SDK retries with backoff. Handing it to the SDK instead would be worse:
 * an update with a null id throws inside the SDK's polling task and silently ends polling for good.
 *
 * <p>Never logs a URL: the bot token is part of every request path. Stateless, thread-safe.
 */
final class PoisonUpdateInterceptor implements Interceptor {

    private static final Logger log = LoggerFactory.getLogger(PoisonUpdateInterceptor.class);
    private static final int MAX_PROBLEM_LENGTH = 200;

    private final ObjectMapper mapper;

    PoisonUpdateInterceptor(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        Response response = chain.proceed(request);
        if (!isGetUpdates(request) || !response.isSuccessful()) {
            return response;
        }
        byte[] raw;
        MediaType type;
        try (ResponseBody body = response.body()) {
            type = body.contentType();
            raw = body.bytes();
        }
        return response.newBuilder()
                .removeHeader("Content-Length")
                .body(ResponseBody.create(repair(raw), type))
                .build();
    }

    /** Whether {@code request} is a {@code getUpdates} call (the one path both polling interceptors watch). */
    static boolean isGetUpdates(Request request) {
        List<String> path = request.url().pathSegments();
        return !path.isEmpty() && path.getLast().equalsIgnoreCase(GetUpdates.PATH);
    }

    /**
     * The answer with each update the SDK cannot read replaced by its bare id; {@code raw} itself
     * when there is nothing to replace or it is not an answer this understands.
     *
     * @throws IOException when an unreadable element has no usable {@code update_id}
     */
    byte[] repair(byte[] raw) throws IOException {
        JsonNode root;
        try {
            root = mapper.readTree(raw);
        } catch (JacksonException e) {
            return raw;
        }
        if (root == null || !(root.get("result") instanceof ArrayNode updates)) {
            return raw;
        }
        boolean replaced = false;
        for (int i = 0; i < updates.size(); i++) {
            JsonNode update = updates.get(i);
            String problem = problem(update);
            if (problem == null) {
                continue;
            }
            JsonNode id = update.path("update_id");
            if (!id.isIntegralNumber() || !id.canConvertToInt()) {
                log.warn("telegram: getUpdates returned an update without a usable update_id ({}); it cannot be "
                        + "skipped, so the poll is retried with backoff", problem);
                throw new IOException("getUpdates returned an update without a usable update_id");
            }
            log.warn("telegram: skipping update {}, which the SDK cannot read ({})", id.intValue(), problem);
            updates.set(i, mapper.createObjectNode().put("update_id", id.intValue()));
            replaced = true;
        }
        return replaced ? mapper.writeValueAsBytes(root) : raw;
    }

    /** Why the SDK cannot use this update, or null when it reads it and finds its id. */
    private String problem(JsonNode update) throws IOException {
        ObjectNode answer = mapper.createObjectNode().put("ok", true);
        answer.putArray("result").add(update);
        try {
            List<Update> read = new GetUpdates().deserializeResponse(mapper.writeValueAsString(answer));
            return read.getFirst() != null && read.getFirst().getUpdateId() != null ? null : "no update_id";
        } catch (TelegramApiRequestException e) {
            return describe(e.getCause() == null ? e : e.getCause());
        }
    }

    /** "message.date: Cannot deserialize ..." on one line; the path starts inside the update. */
    private static String describe(Throwable problem) {
        if (!(problem instanceof JsonMappingException mapping)) {
            return oneLine(problem.toString());
        }
        String what = oneLine(mapping.getOriginalMessage());
        // the first two steps of the path are the probe's own: ApiResponse.result and the list index
        List<JsonMappingException.Reference> steps = mapping.getPath();
        StringBuilder where = new StringBuilder();
        for (JsonMappingException.Reference step : steps.subList(Math.min(2, steps.size()), steps.size())) {
            if (step.getFieldName() == null) {
                where.append('[').append(step.getIndex()).append(']');
            } else {
                where.append(where.isEmpty() ? "" : ".").append(step.getFieldName());
            }
        }
        return where.isEmpty() ? what : where + ": " + what;
    }

    private static String oneLine(String text) {
        String line = String.valueOf(text).replaceAll("\\s+", " ").strip();
        return line.length() <= MAX_PROBLEM_LENGTH ? line : line.substring(0, MAX_PROBLEM_LENGTH) + "...";
    }
}
