package dev.laneway.store.redis;

import dev.laneway.store.EntryRoundTripContract;
import dev.laneway.store.StoreUnderTest;

/** The entry round trip property on Redis: any entry survives the JSON in Redis unchanged. */
class RedisEntryRoundTripPropertyTest extends EntryRoundTripContract {

    @Override
    protected StoreUnderTest subject() {
        return new RedisUnderTest();
    }
}
