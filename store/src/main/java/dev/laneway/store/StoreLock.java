package dev.laneway.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps a second gateway (another process, or another store in this JVM) off the same database: two
 * of them would both restore the same pending messages and answer them twice. An OS file lock on
 * {@code laneway.db.lock} next to the database, held from open to close; the OS drops it when the
 * process dies, so a crash never leaves a stale lock behind.
 */
final class StoreLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private StoreLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static StoreLock acquire(Path database) {
        Path lockFile = database.resolveSibling(database.getFileName() + ".lock");
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw inUse(database, lockFile);
            }
            return new StoreLock(channel, lock);
        } catch (OverlappingFileLockException e) {
            Sqlite.closeQuietly(channel);
            throw inUse(database, lockFile);
        } catch (IOException e) {
            Sqlite.closeQuietly(channel);
            throw new StoreException("could not create the lock file " + lockFile + " for the store " + database
                    + ": " + e.getMessage() + ". Check that gateway.dataDir is writable.", e);
        } catch (StoreException e) {
            Sqlite.closeQuietly(channel);
            throw e;
        }
    }

    private static StoreException inUse(Path database, Path lockFile) {
        return new StoreException("The Laneway store " + database + " is in use by another gateway (" + lockFile
                + " is locked). Stop that gateway first, or give this one another gateway.dataDir.");
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it anyway
        }
        Sqlite.closeQuietly(channel);
    }
}
