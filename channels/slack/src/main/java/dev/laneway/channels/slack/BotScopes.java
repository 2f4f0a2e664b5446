package dev.laneway.channels.slack;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The bot token's OAuth scopes, as Slack lists them in the {@code x-oauth-scopes} header of a Web
 * API answer (read from {@code auth.test} at start), against the scopes the channel needs (the
 * manifest in the module README), each with what stops working without it. An app installed
 * before a scope was added to the manifest keeps its old scopes until it is reinstalled, so this is
 * checked once at start and reported in one line. Immutable.
 */
final class BotScopes {

    /** scope -> what does not work without it; in the manifest's order */
    static final Map<String, String> NEEDED = needed();

    private final Set<String> granted;   // null: Slack did not say (a proxy, an old server)

    private BotScopes(Set<String> granted) {
        this.granted = granted;
    }

    /** From a Web API answer's headers (the SDK lower-cases their names); unknown when absent. */
    static BotScopes fromHeaders(Map<String, List<String>> headers) {
        List<String> values = headers == null ? null : headers.get("x-oauth-scopes");
        if (values == null || values.isEmpty()) {
            return new BotScopes(null);
        }
        return new BotScopes(values.stream()
                .flatMap(value -> Arrays.stream(value.split(",")))
                .map(String::strip)
                .filter(scope -> !scope.isEmpty())
                .collect(Collectors.toUnmodifiableSet()));
    }

    static BotScopes unknown() {
        return new BotScopes(null);
    }

    /** Whether Slack said which scopes the token has. */
    boolean known() {
        return granted != null;
    }

    /** True only when Slack said the token lacks {@code scope}. */
    boolean lacks(String scope) {
        return granted != null && !granted.contains(scope);
    }

    /** Needed scopes the token lacks (none when unknown), in the manifest's order. */
    List<String> missing() {
        List<String> missing = new ArrayList<>();
        NEEDED.keySet().forEach(scope -> {
            if (lacks(scope)) {
                missing.add(scope);
            }
        });
        return missing;
    }

    /** One line for operators: each missing scope with what breaks, and how to fix it; null when none is missing. */
    String missingReport() {
        List<String> missing = missing();
        if (missing.isEmpty()) {
            return null;
        }
        String list = missing.stream().map(scope -> scope + " (" + NEEDED.get(scope) + ")")
                .collect(Collectors.joining("; "));
        return "the Slack bot token (channels.slack.botToken) lacks the scope(s) " + list + ". Add them under "
                + "OAuth & Permissions -> Bot Token Scopes (or update the app manifest from the Slack channel's "
                + "README) and reinstall the app to the workspace.";
    }

    private static Map<String, String> needed() {
        Map<String, String> needed = new LinkedHashMap<>();
        needed.put("app_mentions:read", "@mentions in channels do not arrive");
        needed.put("channels:history", "messages in public channels, such as thread follow-ups, do not arrive");
        needed.put("groups:history", "messages in private channels do not arrive");
        needed.put("im:history", "DMs do not arrive");
        needed.put("im:read", "slash commands in the bot's DM are checked with conversations.history instead "
                + "of conversations.info; if that fails too they are refused with a hint");
        needed.put("mpim:history", "group DMs do not arrive");
        needed.put("chat:write", "no reply can be posted");
        needed.put("reactions:write", "no receipts (reactions)");
        needed.put("users:read", "no display names, and workspace admins are not recognised");
        needed.put("commands", "slash commands do not arrive");
        needed.put("files:read", "files people share cannot be downloaded for the agent (docs/behaviour.md §15.1)");
        return java.util.Collections.unmodifiableMap(needed);
    }
}
