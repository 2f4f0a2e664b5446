package dev.laneway.core;

import java.util.Objects;

/** A non-text part of an inbound message (photo, file, ...), as a kind and an optional name. */
public record Attachment(String kind, String name) {

    public Attachment {
        Objects.requireNonNull(kind, "kind");
    }
}
