package dev.laneway.app.ops;

import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.engine.ConversationSnapshot;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.jobs.ScheduledJobs;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's admin actions (docs/behaviour.md §18), {@code POST} only, each behind the admin
 * token: stop a conversation (its run and its queue, as the chat's {@code /stop}), clear a
 * conversation's queue (the run goes on), pause and resume a scheduled job. Every action and every
 * refusal is logged at INFO / WARN, without the token. Stateless: safe from any request thread.
 */
final class AdminActions {

    private static final Logger log = LoggerFactory.getLogger(AdminActions.class);

    /** The action paths, in the order the docs list them. */
    static final String STOP = "/admin/conversations/stop";
    static final String CLEAR = "/admin/conversations/clear";
    static final String PAUSE = "/admin/jobs/pause";
    static final String RESUME = "/admin/jobs/resume";

    /** What the chat is told when an operator stops it (docs/behaviour.md §18). */
    static final String STOPPED = "⚙️ An operator stopped this conversation's run.";
    /** What the chat is told when an operator clears its queue. */
    static final String CLEARED = "⚙️ An operator cleared %d queued message(s) in this conversation.";

    private final AdminToken token;
    private final Gateway gateway;
    private final JobControls jobs;

    AdminActions(AdminToken token, Gateway gateway, JobControls jobs) {
        this.token = Objects.requireNonNull(token, "token");
        this.gateway = Objects.requireNonNull(gateway, "gateway");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
    }

    /** Whether the token admits the request; the refusal to answer otherwise, or null. */
    OpsResponse refusal(String path, String authorization) {
        return switch (token.check(authorization)) {
            case GRANTED -> null;
            case OFF -> refused(path, "admin actions are off", 403,
                    "admin actions are off: set gateway.http.adminToken to use them");
            case MISSING -> refused(path, "no admin token", 401,
                    "this needs the admin token: send the header Authorization: Bearer <gateway.http.adminToken>");
            case WRONG -> refused(path, "wrong admin token", 401,
                    "the admin token is wrong: send the header Authorization: Bearer <gateway.http.adminToken>");
        };
    }

    private static OpsResponse refused(String path, String why, int status, String error) {
        log.warn("ops: admin request {} refused: {}", path, why);
        return OpsResponse.json(status, Map.of("error", error));
    }

    /**
     * Answers one {@code /admin/...} request.
     *
     * @param method        the HTTP method
     * @param query         the raw query string, or null
     * @param authorization the {@code Authorization} header, or null
     */
    OpsResponse answer(String method, String path, String query, String authorization) {
        if (!path.equals(STOP) && !path.equals(CLEAR) && !path.equals(PAUSE) && !path.equals(RESUME)) {
            return OpsResponse.json(404, Map.of("error", "no admin action " + path + "; try " + STOP + ", " + CLEAR
                    + ", " + PAUSE + ", " + RESUME));
        }
        if (!"POST".equals(method)) {
            return OpsResponse.json(405, Map.of("error", "method not allowed: " + method + " (POST)"));
        }
        OpsResponse refusal = refusal(path, authorization);
        if (refusal != null) {
            return refusal;
        }
        Map<String, String> params = params(query);
        return switch (path) {
            case STOP, CLEAR -> conversation(path, params.get("session"));
            default -> job(path, params.get("id"));
        };
    }

    private OpsResponse conversation(String path, String session) {
        if (session == null || session.isBlank()) {
            return OpsResponse.json(400, Map.of("error", "missing parameter: session (the conversation's session key)"));
        }
        SessionKey key = SessionKey.of(session);
        Route route = gateway.conversations().stream().filter(c -> c.session().equals(key)).findFirst()
                .map(ConversationSnapshot::route).orElse(null);
        boolean stop = path.equals(STOP);
        int cleared = stop ? gateway.stop(key) : gateway.clearQueue(key);
        String notice = stop ? STOPPED + (cleared > 0 ? " Cleared " + cleared + " queued message(s)." : "")
                : cleared > 0 ? CLEARED.formatted(cleared) : null;
        boolean notified = route != null && notice != null;
        if (notified) {
            gateway.reply(route, notice); // the people in the chat learn why their messages get no answer
        }
        log.info("ops: admin {} of session {} from the console: {} queued message(s) cleared{}",
                stop ? "stop" : "clear", key, cleared, notified ? ", the chat was told" : "");
        return OpsResponse.json(200, Map.of("action", stop ? "stop" : "clear", "session", session, "cleared", cleared,
                "notified", notified));
    }

    private OpsResponse job(String path, String id) {
        if (id == null || id.isBlank()) {
            return OpsResponse.json(400, Map.of("error", "missing parameter: id (the scheduled job's id)"));
        }
        boolean pause = path.equals(PAUSE);
        ScheduledJobs.Change change = pause ? jobs.pause(id) : jobs.resume(id);
        if (change == ScheduledJobs.Change.UNKNOWN) {
            return OpsResponse.json(404, Map.of("error", "no scheduled job with the id " + id));
        }
        return OpsResponse.json(200, Map.of("action", pause ? "pause" : "resume", "job", id,
                "changed", change == ScheduledJobs.Change.CHANGED));
    }

    /** The query's parameters (form-encoded); the first of a repeated name wins. */
    static Map<String, String> params(String query) {
        Map<String, String> params = new HashMap<>();
        if (query == null || query.isEmpty()) {
            return params;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.putIfAbsent(name, value);
        }
        return params;
    }
}
