package dev.laneway.store.redis;

import dev.laneway.store.JournalContract;
import dev.laneway.store.StoreUnderTest;

/** The journal contract on Redis (a throwaway redis-server). */
class RedisJournalTest extends JournalContract {

    @Override
    protected StoreUnderTest subject() {
        return new RedisUnderTest();
    }
}
