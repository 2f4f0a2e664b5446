package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.app.FakeTelegramServer.Forum;
import dev.laneway.app.FakeTelegramServer.Person;
import dev.laneway.app.FakeTelegramServer.Sent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler (docs/behaviour.md §11) through the real CLI and the real telegrambots SDK, against
 * a fake Bot API server: one Telegram forum group floods twelve messages over six topics at once, and
 * three people send a DM just after. {@code main} has one slot and the echo agent takes 800 ms.
 *
 * <p>Why the group's messages are {@code normal}: with {@code groups.requireMention: false} a group
 * message engages the bot without a mention, which is the {@code group} kind and so {@code normal}
 * class. Replying to the bot would not do: a reply to the bot counts as addressing it, like a mention
 * ({@code interactive}). Each topic is a session of its own ({@code groupScope: thread}); all six
 * share the group's tenant ({@code chat:telegram:<id>}: Telegram has no space above the chat). Each
 * DM is {@code interactive} and its own tenant. Queue mode {@code followup} without debounce gives
 * every message a run and an answer of its own, so "answered exactly once" can be counted.
 *
 * <p>What must happen, in both modes: every message answered exactly once, in its topic, and each
 * topic's answers in the order of its messages (a session runs one turn at a time).
 *
 * <ul>
 *   <li>{@code fair} (the default): interactive is served before normal, so the DMs take the next
 *       slots after the group run holding {@code main} when they came, and are answered before the
 *       group's backlog. None is deferred: each waits behind at most the DMs before it (estimates
 *       8, 16, 24 s against the interactive budget of 30 s).</li>
 *   <li>{@code fifo} (one flat line): a topic's first message claims {@code main} as soon as it is
 *       accepted, its second only after its first is answered (a session's runs never overlap), so
 *       when the DMs come the line holds every topic's first message: each DM is answered after all
 *       six of them (the topics' second messages then queue behind the DMs). The DMs stand #6, #7
 *       and #8 in that line, which is over the 30 s budget at the estimated run time, so each is
 *       deferred with the notice telling them where they stand, then answered.</li>
 * </ul>
 *
 * <p>{@code scheduling.initialRunTime} is 8 s in both runs (the default is 5 s): the estimate before
 * any run has ended. With 5 s, the first DM in the flat line is estimated at exactly 30 s (six slots
 * of 5 s) and whether the others are deferred depends on how many 800 ms runs happen to have ended
 * before they come; with 8 s (the run time estimate falls towards the observed 800 ms by an eighth
 * per ended run) the flat line's estimates stay over budget while the first four runs end, and the
 * fair line's stay under it whatever the timing.
 */
class SchedulingEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(40);
    private static final Forum FORUM = new Forum(-1009876543210L, "Flood");
    private static final int TOPICS = 6;
    private static final int PER_TOPIC = 2;
    private static final List<Person> MEMBERS = List.of(new Person(101, "Ann"), new Person(102, "Bob"),
            new Person(103, "Cid"));
    private static final List<Person> DM_SENDERS = List.of(new Person(201, "Dana"), new Person(202, "Eli"),
            new Person(203, "Fay"));
    private static final Pattern DEFERRED = Pattern.compile("⏳ Busy right now: you are #(\\d+) in line, about (\\d+) s\\.");

    @TempDir
    Path dir;

    @Test
    void fair_theDmsAreAnsweredBeforeTheGroupsBacklog_andNobodyIsDeferred() throws Exception {
        Outcome outcome = flood("fair");
        outcome.assertEveryMessageAnsweredOnceInItsTopicAndInOrder();
        for (Person person : DM_SENDERS) {
            assertEquals(List.of(answerTo(person)), outcome.textsTo(person),
                    "only the answer: a DM waits behind at most the two before it, well within the 30 s budget");
        }
        int before = outcome.groupAnswersBefore(outcome.lastDmAnswer());
        assertTrue(before <= 2, "interactive before normal: the DMs wait only for the group run that held the slot "
                + "when they came (or the next one, on a slow machine), not for the backlog; group answers before the "
                + "last DM answer: " + before + "\n" + outcome);
        assertTrue(outcome.groupAnswersAfter(outcome.lastDmAnswer()) >= 8, "the group's backlog drains after the DMs\n"
                + outcome);
        System.out.println("fair: " + outcome.figures());
    }

    @Test
    void fifo_theDmsWaitBehindEveryTopicOfTheFlood_andAreToldWhereTheyStand() throws Exception {
        Outcome outcome = flood("fifo");
        outcome.assertEveryMessageAnsweredOnceInItsTopicAndInOrder();
        for (int i = 0; i < DM_SENDERS.size(); i++) {
            Person person = DM_SENDERS.get(i);
            List<String> texts = outcome.textsTo(person);
            assertEquals(2, texts.size(), "one notice, then the answer: " + texts);
            Matcher notice = DEFERRED.matcher(texts.get(0));
            assertTrue(notice.matches(), "deferred with where it stands: " + texts);
            assertEquals(TOPICS + i, Integer.parseInt(notice.group(1)),
                    "behind the five topics waiting (one runs) and the DMs before it: " + texts);
            assertTrue(Integer.parseInt(notice.group(2)) > 30, "over the interactive budget of 30 s: " + texts);
            assertEquals(answerTo(person), texts.get(1));
        }
        int before = outcome.groupAnswersBefore(outcome.firstDmAnswer());
        assertTrue(before >= TOPICS, "the flat line: the DMs come after every topic's first message, which were all "
                + "in line before them; group answers before the first DM answer: " + before + "\n" + outcome);
        System.out.println("fifo: " + outcome.figures());
    }

    /** Runs the flood and the DMs through the CLI in {@code mode}; returns what the bot sent once it has stopped. */
    private Outcome flood(String mode) throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer()) {
            Path config = dir.resolve("laneway.yaml");
            Files.writeString(config, """
                    gateway:
                      dataDir: %s
                      http: { enabled: false }
                    agents:
                      defaults: { maxConcurrent: 1 }
                      list:
                        assistant: { provider: echo, delayMs: 800 }
                    messages:
                      queue: { mode: followup, debounceMs: 0 }
                    scheduling:
                      mode: %s
                      initialRunTime: 8s
                    channels:
                      telegram:
                        enabled: true
                        token: "${TELEGRAM_BOT_TOKEN}"
                        apiUrl: %s
                        groups: { requireMention: false }
                    """.formatted(dir.resolve("data"), mode, telegram.url()));
            try (CliProcess cli = new CliProcess(dir, Map.of("TELEGRAM_BOT_TOKEN", FakeTelegramServer.TOKEN), "run",
                    "--config", config.toString())) {
                telegram.awaitFirstPoll(WAIT);
                Instant start = Instant.now();
                telegram.inOneBatch(() -> {
                    for (int n = 1; n <= PER_TOPIC; n++) {
                        for (int topic = 1; topic <= TOPICS; topic++) {
                            telegram.inTopic(FORUM, threadOf(topic), MEMBERS.get((topic + n) % MEMBERS.size()),
                                    topicText(topic, n));
                        }
                    }
                });
                telegram.awaitCaughtUp(WAIT); // the whole flood is accepted
                for (Person person : DM_SENDERS) {
                    telegram.dm(person, dmText(person));
                    telegram.awaitCaughtUp(WAIT); // one at a time: their order is known
                }
                int answers = TOPICS * PER_TOPIC + DM_SENDERS.size();
                telegram.awaitSent(answers, sent -> sent.text().startsWith("echo: "), WAIT);
                cli.sigterm();
                cli.awaitExit(WAIT);
                return new Outcome(telegram.sent(), start, cli.stderr());
            }
        }
    }

    private static int threadOf(int topic) {
        return 10 + topic; // a topic's thread id is the id of its creation message
    }

    private static String topicText(int topic, int n) {
        return "topic " + topic + " message " + n;
    }

    private static String dmText(Person person) {
        return "a DM from " + person.name();
    }

    private static String answerTo(Person person) {
        return "echo: " + dmText(person);
    }

    /** What the bot sent, in the order the server received it, after the CLI stopped (so nothing more can come). */
    private record Outcome(List<Sent> sent, Instant start, String log) {

        String forum() {
            return Long.toString(FORUM.id());
        }

        List<String> textsTo(Person person) {
            return sent.stream().filter(s -> s.chatId().equals(Long.toString(person.id()))).map(Sent::text).toList();
        }

        void assertEveryMessageAnsweredOnceInItsTopicAndInOrder() {
            List<Sent> group = sent.stream().filter(s -> s.chatId().equals(forum())).toList();
            assertEquals(TOPICS * PER_TOPIC, group.size(), "one answer per group message, and nothing else (no notice): "
                    + this);
            Map<Integer, List<String>> byTopic = new LinkedHashMap<>();
            for (Sent answer : group) {
                byTopic.computeIfAbsent(answer.threadId(), t -> new ArrayList<>()).add(answer.text());
            }
            for (int topic = 1; topic <= TOPICS; topic++) {
                List<String> expected = new ArrayList<>();
                for (int n = 1; n <= PER_TOPIC; n++) {
                    expected.add("echo: " + topicText(topic, n));
                }
                assertEquals(expected, byTopic.get(threadOf(topic)),
                        "each answered once, in its topic, in the order sent: " + this);
            }
            for (Person person : DM_SENDERS) {
                assertEquals(1, textsTo(person).stream().filter(answerTo(person)::equals).count(),
                        "each DM answered exactly once: " + this);
            }
            assertTrue(sent.stream().allMatch(s -> s.chatId().equals(forum())
                    || DM_SENDERS.stream().anyMatch(p -> s.chatId().equals(Long.toString(p.id())))), "only to them: " + this);
        }

        private boolean isDmAnswer(Sent s) {
            return !s.chatId().equals(forum()) && s.text().startsWith("echo: ");
        }

        int firstDmAnswer() {
            for (int i = 0; i < sent.size(); i++) {
                if (isDmAnswer(sent.get(i))) {
                    return i;
                }
            }
            throw new AssertionError("no DM answer: " + this);
        }

        int lastDmAnswer() {
            for (int i = sent.size() - 1; i >= 0; i--) {
                if (isDmAnswer(sent.get(i))) {
                    return i;
                }
            }
            throw new AssertionError("no DM answer: " + this);
        }

        int groupAnswersBefore(int index) {
            return (int) sent.subList(0, index).stream().filter(s -> s.chatId().equals(forum())).count();
        }

        int groupAnswersAfter(int index) {
            return (int) sent.subList(index + 1, sent.size()).stream().filter(s -> s.chatId().equals(forum())).count();
        }

        /** Each send in order, G a group answer, D a DM answer, n a notice, with its ms since the flood. */
        String figures() {
            StringBuilder out = new StringBuilder();
            for (Sent s : sent) {
                out.append(s.chatId().equals(forum()) ? 'G' : isDmAnswer(s) ? 'D' : 'n').append(millis(s.at())).append(' ');
            }
            return out.toString().strip();
        }

        private long millis(Instant at) {
            return Duration.between(start, at).toMillis();
        }

        @Override
        public String toString() {
            StringBuilder out = new StringBuilder("sent, in order:");
            for (Sent s : sent) {
                out.append("\n  +").append(millis(s.at())).append(" ms ").append(s.chatId())
                        .append(s.threadId() == null ? "" : "/" + s.threadId()).append(": ").append(s.text());
            }
            return out.append("\nlog:\n").append(log).toString();
        }
    }
}
