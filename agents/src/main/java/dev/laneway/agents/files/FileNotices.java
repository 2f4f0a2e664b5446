package dev.laneway.agents.files;

/** The texts a user sees about their attachments (docs/behaviour.md §15.5, the table in §10.4). */
public final class FileNotices {

    /** Once per session and agent: its model took an image as a name only. */
    public static final String NO_VISION = "ℹ️ This model cannot see images, so it got only the names of your images.";

    private FileNotices() {
    }

    public static String notOpened(String name, String reason) {
        return "⚠️ I could not open " + name + ": " + reason + ".";
    }

    public static String cannotHear(String name) {
        return "⚠️ I cannot hear voice notes or audio here, so " + name + " did not reach the model. Please send text.";
    }

    public static String notTranscribed(String name, String reason) {
        return "⚠️ I could not transcribe " + name + ": " + reason + ".";
    }

    public static String cannotRead(String name, String mediaType) {
        return "⚠️ I cannot read " + name + " (" + mediaType + "): only images, text files and voice notes reach the model.";
    }
}
