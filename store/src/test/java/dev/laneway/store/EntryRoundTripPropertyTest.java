package dev.laneway.store;

/** The entry round trip property on SQLite. */
class EntryRoundTripPropertyTest extends EntryRoundTripContract {

    @Override
    protected StoreUnderTest subject() throws Exception {
        return SqliteUnderTest.inTempDir();
    }
}
