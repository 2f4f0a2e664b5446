package dev.laneway.store;

/**
 * The store cannot do what was asked: it cannot be opened (unreadable file, newer schema, in use by
 * another process), or a write could not be made durable. Messages name the database file and, for
 * start-up failures, what the operator can do about it. Unchecked, like every error of the SPI.
 */
public final class StoreException extends RuntimeException {

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
