package dev.laneway.core.agent;

import dev.laneway.core.Attachment;
import java.util.Objects;

/**
 * One attachment after its fetch (docs/behaviour.md §15.1): its content, or why there is none.
 *
 * @param attachment   the attachment as the message carried it
 * @param content      the bytes, or null when it could not be fetched
 * @param mediaType    the media type the content really has (the declared one unless its first bytes
 *                     say otherwise), or null when it could not be fetched
 * @param problem      why there is no content, as the user reads it ({@code larger than 20 MB}), or null
 * @param shareableUrl a URL a model provider may fetch itself (docs/behaviour.md §15.2, {@code images: url}),
 *                     or null when the platform's URL needs a secret of ours
 */
public record LoadedFile(Attachment attachment, byte[] content, String mediaType, String problem,
                         String shareableUrl) {

    public LoadedFile {
        Objects.requireNonNull(attachment, "attachment");
        if ((content == null) == (problem == null)) {
            throw new IllegalArgumentException("a loaded file has either content or a problem");
        }
    }

    public static LoadedFile failed(Attachment attachment, String problem) {
        return new LoadedFile(attachment, null, null, problem, null);
    }

    public boolean ok() {
        return content != null;
    }

    /** No content and no URL in the text: the content may be a user's private file. */
    @Override
    public String toString() {
        return "LoadedFile[" + attachment + (ok() ? ", " + content.length + " bytes, " + mediaType : ", " + problem) + "]";
    }
}
