package dev.laneway.app;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Users writing to a fleet ({@link FleetRig}) in webhook mode, and what they got back. Each of
 * {@code chats} people sends {@code perChat} direct messages {@code c<chat>-m<n>}, one every
 * {@code gap}, all people at once; message {@code n} of a chat goes first to another instance than
 * message {@code n-1}, so one session's messages arrive all over the fleet. An answer,
 * {@code model says: c<chat>-m<n> via <instance>}, names its message and the instance that ran it.
 *
 * <p>Concurrency: one virtual thread per person posts; {@code failures} collects what they threw.
 */
final class FleetTraffic {

    static final long FIRST_CHAT = 1001;
    private static final Pattern ANSWER = Pattern.compile("model says: (c(\\d+)-m\\d+) via (\\w+)");

    /** One answer as the Bot API received it. */
    record Answer(String message, long chat, String label, Instant at) {
    }

    private final FleetRig rig;
    private final int chats;
    private final int perChat;
    private final Duration gap;
    private final long firstChat;
    private final List<Thread> people = new ArrayList<>();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    FleetTraffic(FleetRig rig, int chats, int perChat, Duration gap) {
        this(rig, FIRST_CHAT, chats, perChat, gap);
    }

    /** People from chat id {@code firstChat} on (another range per round of a measurement). */
    FleetTraffic(FleetRig rig, long firstChat, int chats, int perChat, Duration gap) {
        this.rig = rig;
        this.firstChat = firstChat;
        this.chats = chats;
        this.perChat = perChat;
        this.gap = gap;
    }

    FleetTraffic start() {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (int c = 0; c < chats; c++) {
            long chat = firstChat + c;
            int first = c;
            people.add(Thread.ofVirtual().start(() -> {
                FakeTelegramServer.Person person = new FakeTelegramServer.Person(chat, "p" + chat);
                try {
                    for (int n = 1; n <= perChat; n++) {
                        rig.post(rig.telegram.dmUpdate(person, "c" + chat + "-m" + n), first + n, deadline);
                        Thread.sleep(gap.toMillis());
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        return this;
    }

    /** Waits until every message was taken by an instance (answered 200). */
    void awaitPosted() throws InterruptedException {
        for (Thread person : people) {
            person.join();
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("posting failed: " + failures, failures.getFirst());
        }
    }

    /** Every message sent, in order per chat. */
    List<String> messages() {
        List<String> ids = new ArrayList<>();
        for (int c = 0; c < chats; c++) {
            for (int n = 1; n <= perChat; n++) {
                ids.add("c" + (firstChat + c) + "-m" + n);
            }
        }
        return ids;
    }

    /** The answers so far by message, each message's in the order they arrived. */
    Map<String, List<Answer>> answers() {
        Map<String, List<Answer>> byMessage = new LinkedHashMap<>();
        for (FakeTelegramServer.Sent sent : rig.telegram.sent()) {
            Matcher answer = ANSWER.matcher(sent.text());
            if (answer.matches()) {
                byMessage.computeIfAbsent(answer.group(1), m -> new ArrayList<>()).add(
                        new Answer(answer.group(1), Long.parseLong(answer.group(2)), answer.group(3), sent.at()));
            }
        }
        return byMessage;
    }

    /** Messages without an answer yet. */
    List<String> unanswered() {
        Map<String, List<Answer>> answers = answers();
        return messages().stream().filter(m -> !answers.containsKey(m)).toList();
    }

    /**
     * Waits until every message has an answer and the fleet has nothing pending (every end recorded),
     * then returns the answers.
     */
    Map<String, List<Answer>> awaitAllAnswered(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!unanswered().isEmpty() || rig.pending() > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("after " + timeout + ", unanswered: " + unanswered() + ", pending: "
                        + rig.pending() + "\n" + rig.logs());
            }
            Thread.sleep(100);
        }
        return answers();
    }

    /** The last {@code lines} lines of a text. */
    static String tail(String text, int lines) {
        String[] all = text.split("\n");
        return String.join("\n", List.of(all).subList(Math.max(0, all.length - lines), all.length));
    }
}
