package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.config.Secret;
import dev.laneway.config.TelegramWebhook;
import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.channel.SeenIds;
import dev.laneway.core.testing.Await;
import dev.laneway.store.StoreOptions;
import dev.laneway.store.redis.RedisSeenIds;
import dev.laneway.store.redis.RedisServer;
import dev.laneway.store.redis.RedisStore;
import dev.laneway.store.redis.RedisTarget;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Webhook mode (docs/behaviour.md §17, "Ingress") through the real SDK's types, the fake Bot API
 * (which records {@code setWebhook}) and a real gateway: updates are posted over HTTP as Telegram
 * (behind a load balancer) would, with or without the secret-token header.
 */
class WebhookTest {

    private static final String SECRET = "s3cret_Token-42";
    private static final TelegramWebhook WEBHOOK = new TelegramWebhook(URI.create("https://bot.example.test/tg"),
            "127.0.0.1", 0, "/tg", new Secret(SECRET));
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    @Test
    void start_registersTheWebhookWithItsSecretAndNeverPolls() throws Exception {
        try (Rig rig = Rig.with().webhook(WEBHOOK).start()) {
            List<FakeBotApi.Call> set = rig.api.calls("setWebhook");
            assertEquals(1, set.size());
            JsonNode body = set.get(0).body();
            assertEquals("https://bot.example.test/tg", body.path("url").asText());
            assertEquals(SECRET, body.path("secret_token").asText());
            assertTrue(body.path("allowed_updates").asText().contains("message"), body.toString());
            rig.api.dm(Tg.ANN, "not fetched: Telegram would not queue it for getUpdates with a webhook set");
            assertEquals(0, rig.api.calls("getUpdates").size(), "webhook mode never polls");
            assertTrue(rig.channel.connected());
        }
    }

    @Test
    void update_isAnswered200OnceJournaled_andAnswered() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).webhook(WEBHOOK).start()) {
            HttpResponse<String> response = post(rig, update(8001, "hello over https"), SECRET);

            assertEquals(200, response.statusCode());
            assertEquals(1, rig.journal.lastSequence(), "answered 200 only once the message is journaled");
            Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals("echo: hello over https", rig.api.sentTo(Tg.ANN.id()).get(0).text());
        }
    }

    @Test
    void theAnswerWaitsForTheJournal_soTelegramNeverDropsAnUpdateTheGatewayDoesNotHave() throws Exception {
        try (Rig rig = Rig.with().webhook(WEBHOOK).start()) {
            rig.appendGate.close();
            CompletableFuture<HttpResponse<String>> response = postAsync(rig, update(8005, "slow store"), SECRET);
            Await.until("the journal append to be held", () -> rig.appendGate.waiting() == 1);
            assertThrows(TimeoutException.class, () -> response.get(300, TimeUnit.MILLISECONDS),
                    "no answer while the message is not journaled");

            rig.appendGate.open();
            assertEquals(200, response.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).statusCode());
        }
    }

    @Test
    void wrongOrMissingSecret_isRefused401_takesNothing_andTheSecretIsNeverLogged() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(WebhookReceiver.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try (Rig rig = Rig.with().webhook(WEBHOOK).start()) {
            assertEquals(401, post(rig, update(8002, "forged"), "not-the-secret").statusCode());
            assertEquals(401, post(rig, update(8003, "forged"), null).statusCode());
            assertEquals(401, post(rig, update(8004, "forged"), SECRET + "x").statusCode());

            assertEquals(0, rig.journal.lastSequence(), "a refused request reaches nothing");
            assertTrue(rig.scripted().runs().isEmpty());
            assertEquals(200, post(rig, update(8002, "the real one, same id as a forged one"), SECRET).statusCode());
            assertEquals(1, rig.journal.lastSequence(), "a forged request does not mark its update id seen");
        } finally {
            logger.detachAppender(logged);
        }
        assertFalse(logged.list.isEmpty(), "a refusal is logged");
        for (ILoggingEvent event : logged.list) {
            assertFalse(event.getFormattedMessage().contains(SECRET), event.getFormattedMessage());
            assertFalse(event.getFormattedMessage().contains("not-the-secret"), event.getFormattedMessage());
        }
    }

    @Test
    void redeliveredUpdateId_isTakenOnce() throws Exception {
        try (Rig rig = Rig.with().webhook(WEBHOOK).start()) {
            String update = update(8010, "once");
            assertEquals(200, post(rig, update, SECRET).statusCode());
            assertEquals(200, post(rig, update, SECRET).statusCode(), "a repeat is answered 200 so Telegram stops");
            rig.run(0).complete("ok");
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT), "the gateway is done with the message");
            assertEquals(1, rig.journal.lastSequence());
            assertEquals(1, rig.scripted().runs().size());
        }
    }

    @Test
    void twoInstancesSharingSeenIds_takeOneUpdateOnce() throws Exception {
        ExpiringKeys shared = new ExpiringKeys(InstantSource.system(), Duration.ofHours(1), 100);
        SeenIds.Source fleet = (kind, ttl, max) -> shared;
        try (FakeBotApi api = FakeBotApi.start();
             Rig first = Rig.with().api(api).webhook(WEBHOOK).seen(fleet).start();
             Rig second = Rig.with().api(api).webhook(WEBHOOK).seen(fleet).start()) {
            String update = update(8020, "delivered to both behind the balancer");
            assertEquals(200, post(first, update, SECRET).statusCode());
            assertEquals(200, post(second, update, SECRET).statusCode());
            assertEquals(1, first.journal.lastSequence() + second.journal.lastSequence(), "one instance takes it");
        }
    }

    /**
     * An instance that answers 503 (its hand-over interrupted at close) and never completes that
     * hand-over must not leave the update's claim behind: Telegram's redelivery, to another instance
     * sharing the seen ids in Redis, is taken and answered once (docs/behaviour.md §17, "Ingress").
     */
    @Test
    void anUpdateWhoseHandOverFailed_isTakenWhenRedeliveredToAnotherInstance_andAnsweredOnce() throws Exception {
        try (RedisServer redis = RedisServer.start();
             RedisStore store = RedisStore.open(RedisTarget.of(redis.url(), "support"), StoreOptions.defaults());
             FakeBotApi api = FakeBotApi.start()) {
            CompletableFuture<String> forgotten = new CompletableFuture<>();
            SeenIds.Source watched = (kind, ttl, max) -> new ForgetsNoted(RedisSeenIds.on(store, "first")
                    .forKind(kind, ttl, max), forgotten);
            SeenIds.Source fleet = RedisSeenIds.on(store, "second");
            Rig first = Rig.with().api(api).webhook(WEBHOOK).seen(watched).start();
            CompletableFuture<HttpResponse<String>> refused;
            try {
                first.appendGate.close();                  // its hand-over never completes
                refused = postAsync(first, update(8050, "lost unless redelivered"), SECRET);
                Await.until("the hand-over to be held", () -> first.appendGate.waiting() == 1);
            } finally {
                first.close();                             // SIGTERM: the held hand-over is interrupted
            }
            assertEquals("8050", forgotten.completeOnTimeout("none", TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).join(),
                    "the 503'd update's claim is given back (else its redelivery is skipped as a repeat)");
            try {
                assertEquals(503, refused.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).statusCode());
            } catch (java.util.concurrent.ExecutionException cutOff) {
                // the listener closed first: Telegram sees a failed delivery, which it retries like a 503
            }

            try (Rig second = Rig.with().api(api).agent(new EchoAgent()).webhook(WEBHOOK).seen(fleet).start()) {
                String redelivery = update(8050, "lost unless redelivered");
                assertEquals(200, post(second, redelivery, SECRET).statusCode());
                assertEquals(1, second.journal.lastSequence(), "the redelivery is taken, not skipped as a repeat");
                assertEquals(200, post(second, redelivery, SECRET).statusCode());
                Await.until("the reply", () -> api.sentTo(Tg.ANN.id()).size() == 1);
                assertTrue(second.gateway.awaitIdle(Await.DEFAULT));
                assertEquals(1, second.journal.lastSequence(), "taken once");
                assertEquals(List.of("echo: lost unless redelivered"), api.textsTo(Tg.ANN.id()), "answered once");
            }
        }
    }

    /**
     * docs/decisions.md D184 (was L40): an instance claims an update and dies (kill -9: no give-back)
     * before journaling it. While its heartbeat lives, Telegram's redelivery to another instance is
     * refused 503 (not answered 200 as a repeat, which would lose it); once the heartbeat is gone
     * the redelivery is taken over, journaled and answered once, and later repeats are 200.
     */
    @Test
    void anUpdateWhoseInstanceDiedBeforeJournalingIt_isTakenByTheRedelivery_andAnsweredOnce() throws Exception {
        try (RedisServer redis = RedisServer.start();
             RedisStore store = RedisStore.open(RedisTarget.of(redis.url(), "support"), StoreOptions.defaults());
             FakeBotApi api = FakeBotApi.start();
             redis.clients.jedis.Jedis jedis = redis.client()) {
            jedis.hset("laneway:{support}:instance:first", "host", "doomed");     // first's heartbeat
            jedis.hset("laneway:{support}:instance:second", "host", "survivor");
            Rig first = Rig.with().api(api).webhook(WEBHOOK).seen(RedisSeenIds.on(store, "first")).start();
            boolean firstClosed = false;
            try (Rig second = Rig.with().api(api).agent(new EchoAgent()).webhook(WEBHOOK)
                    .seen(RedisSeenIds.on(store, "second")).start()) {
                String delivery = update(8060, "sent just before the kill");
                first.appendGate.close();                   // claimed, not journaled: the kill lands here
                CompletableFuture<HttpResponse<String>> held = postAsync(first, delivery, SECRET);
                Await.until("the hand-over to be held", () -> first.appendGate.waiting() == 1);

                assertEquals(503, post(second, delivery, SECRET).statusCode(),
                        "claimed by a live instance, not journaled: Telegram must send it again");
                assertEquals(0, second.journal.lastSequence());

                jedis.del("laneway:{support}:instance:first");  // its heartbeat expires
                assertEquals(200, post(second, delivery, SECRET).statusCode());
                assertEquals(1, second.journal.lastSequence(), "the dead instance's claim is taken over");
                Await.until("the reply", () -> api.sentTo(Tg.ANN.id()).size() == 1);
                assertTrue(second.gateway.awaitIdle(Await.DEFAULT));

                firstClosed = true;
                first.close();                              // its held hand-over ends; its give-back finds the claim gone
                held.handle((response, failure) -> null).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                assertEquals(200, post(second, delivery, SECRET).statusCode(), "handed over: a repeat");
                assertEquals(1, second.journal.lastSequence(), "taken once");
                assertEquals(List.of("echo: sent just before the kill"), api.textsTo(Tg.ANN.id()), "answered once");
            } finally {
                if (!firstClosed) {
                    first.close();
                }
            }
        }
    }

    /** Seen ids that note the first id forgotten. */
    private record ForgetsNoted(SeenIds ids, CompletableFuture<String> forgotten) implements SeenIds {
        @Override
        public boolean add(String id) {
            return ids.add(id);
        }

        @Override
        public Claim claim(String id) {
            return ids.claim(id);
        }

        @Override
        public void taken(String id) {
            ids.taken(id);
        }

        @Override
        public boolean remove(String id) {
            boolean removed = ids.remove(id);
            forgotten.complete(id);
            return removed;
        }
    }

    @Test
    void afterStopReceiving_updatesAreRefused503_soTelegramSendsThemAgain() throws Exception {
        try (Rig rig = Rig.with().webhook(WEBHOOK).start()) {
            rig.channel.stopReceiving();
            assertEquals(503, post(rig, update(8030, "during shutdown"), SECRET).statusCode());
            assertEquals(0, rig.journal.lastSequence());
            assertFalse(rig.channel.connected());
        }
    }

    @Test
    void unreadableUpdate_isSteppedOver200_otherPathsAndMethodsRefused() throws Exception {
        try (Rig rig = Rig.with().webhook(WEBHOOK).start()) {
            assertEquals(200, post(rig, "{\"update_id\": \"not a number\", \"message\": 7}", SECRET).statusCode());
            InetSocketAddress at = rig.channel.webhookAddress();
            HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + "/tg"))
                    .timeout(TIMEOUT).header(WebhookReceiver.SECRET_HEADER, SECRET).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(405, get.statusCode());
            HttpResponse<String> elsewhere = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + at.getPort() + "/tg/other"))
                    .timeout(TIMEOUT).header(WebhookReceiver.SECRET_HEADER, SECRET)
                    .POST(HttpRequest.BodyPublishers.ofString(update(8040, "x"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(404, elsewhere.statusCode());
            assertEquals(0, rig.journal.lastSequence());
        }
    }

    private static String update(int updateId, String text) {
        return Tg.update(updateId, "message", Tg.message(updateId + 1, Tg.privateChat(Tg.ANN), Tg.ANN, text)).toString();
    }

    private CompletableFuture<HttpResponse<String>> postAsync(Rig rig, String json, String secret) {
        InetSocketAddress at = rig.channel.webhookAddress();
        return http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + WEBHOOK.path()))
                .timeout(TIMEOUT)
                .header(WebhookReceiver.SECRET_HEADER, secret)
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(Rig rig, String json, String secret) throws Exception {
        InetSocketAddress at = rig.channel.webhookAddress();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + WEBHOOK.path()))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (secret != null) {
            request.header(WebhookReceiver.SECRET_HEADER, secret);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
