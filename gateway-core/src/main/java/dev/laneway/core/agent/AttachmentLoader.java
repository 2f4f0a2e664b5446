package dev.laneway.core.agent;

import java.util.List;

/**
 * Fetches a message's attachments for an agent (docs/behaviour.md §15.1): through the channel that
 * made them, bounded by the size limits per file and per message and by a timeout. It blocks: an
 * agent calls it on its run's own thread, never on an SDK or engine thread. Thread-safe.
 */
public interface AttachmentLoader {

    /** Fetches each of the message's attachments; one result per attachment, in order, never throws. */
    List<LoadedFile> load(MessageFiles files);

    /** Fetches nothing: every fetchable attachment reports that files are not fetched here. */
    AttachmentLoader NONE = files -> files.attachments().stream()
            .map(attachment -> LoadedFile.failed(attachment, "files are not fetched by this gateway"))
            .toList();
}
