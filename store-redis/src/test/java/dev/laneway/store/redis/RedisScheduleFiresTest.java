package dev.laneway.store.redis;

import dev.laneway.core.store.SessionStore;
import dev.laneway.core.store.SessionStoreFiresContract;
import dev.laneway.store.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The Redis store keeps the fires contract of every {@code SessionStore}. */
class RedisScheduleFiresTest extends SessionStoreFiresContract {

    private RedisUnderTest subject;
    private final List<RedisStore> opened = new ArrayList<>();

    @BeforeEach
    void emptyRedis() {
        subject = new RedisUnderTest();
    }

    @Override
    protected SessionStore store() {
        RedisStore store = RedisStore.open(subject.target(), Fixtures.options(Fixtures.clock()));
        opened.add(store);
        return store;
    }

    @AfterEach
    void closeStores() {
        opened.forEach(RedisStore::close);
    }
}
