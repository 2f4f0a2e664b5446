package dev.laneway.core.channel;

import dev.laneway.core.Attachment;
import dev.laneway.core.Route;
import java.time.Duration;

/**
 * One platform connection. SDK threads only convert platform events and call
 * {@link InboundSink#accept}; sending is called from the gateway's outbox, one message at a time
 * per chat, and may block (the outbox runs it on a virtual thread).
 */
public interface ChannelAdapter {

    /** The channel's name, as used in config ({@code telegram}, {@code console}, ...). */
    String name();

    ChannelCapabilities capabilities();

    /** Connects and starts delivering inbound messages to {@code sink}. */
    void start(InboundSink sink) throws Exception;

    /**
     * Sends one message of at most {@code capabilities().maxTextLength()} characters, once: the
     * channel does not wait and retry itself. A {@link SendFailure} tells the outbox what to do
     * (wait out a 429 for this chat only, back off after a 5xx, or give up), with a detail that
     * holds no secret; any other exception is read by {@link SendFailure#of}.
     */
    void send(Route route, String text) throws Exception;

    /**
     * Whether answers to {@code route}'s chat are streamed, and how often its live message may
     * change (docs/behaviour.md §16). Asked once per run, off any session lock; a channel that
     * streams implements {@link #post} and {@link #edit}. Default: {@link Streaming#OFF}.
     */
    default Streaming streaming(Route route) {
        return Streaming.OFF;
    }

    /**
     * Sends one message, like {@link #send}, and returns the platform's id for it, so that
     * {@link #edit} can change it later; null when the message cannot be edited. Failures as for
     * {@link #send}. Default: {@link #send}, and null.
     */
    default String post(Route route, String text) throws Exception {
        send(route, text);
        return null;
    }

    /**
     * Replaces the text of the message {@code messageId} (one {@link #post} returned) with
     * {@code text}, formatted as {@link #send} formats it, at most {@code maxTextLength} characters.
     * Once: a {@link SendFailure} says what happened (a 429 pauses the chat and the outbox then
     * sends the rest of the answer as new messages). Default: refused.
     */
    default void edit(Route route, String messageId, String text) throws Exception {
        throw SendFailure.refused(name() + " cannot edit messages");
    }

    /**
     * Whether the live message {@code messageId} (one {@link #post} returned) is a draft: a preview the
     * chat does not keep (Telegram's {@code sendMessageDraft} in a private chat, docs/behaviour.md
     * §16.1), changed by {@link #edit} while the answer is written and sent for good by {@link #keep}
     * once its text is final. Default: false.
     */
    default boolean draft(String messageId) {
        return false;
    }

    /**
     * Whether the live message {@code messageId} must be finished by {@link #keep} once its text is
     * final: a draft, or a message the platform streams into until it is stopped (Slack's
     * {@code chat.startStream}, docs/behaviour.md §16.1), which the chat keeps as it shows it.
     * Default: {@link #draft}.
     */
    default boolean finishes(String messageId) {
        return draft(messageId);
    }

    /**
     * Sends {@code text} as a message the chat keeps, once, and returns its id as {@link #post} does:
     * the final text of the live message {@code draftId} that {@link #finishes} (a draft is sent as a
     * message; a stream is stopped showing {@code text}), or (null) a message of the rest of a live
     * answer that can no longer be edited. Failures as for {@link #send}. Default: {@link #post}.
     */
    default String keep(Route route, String draftId, String text) throws Exception {
        return post(route, text);
    }

    /**
     * How long the outbox must wait before it sends the next message to {@code route}'s chat, to
     * keep to the platform's rate (zero: now). Asked once before each message; the answer books
     * that message's slot, so the outbox then sends it without asking again. The wait costs no
     * thread, and other chats go on meanwhile. Default: zero (the SDK paces, as JDA does).
     */
    default Duration pace(Route route) {
        return Duration.ZERO;
    }

    /**
     * Shows the typing indicator once (the gateway refreshes it). A {@link SendFailure} of kind
     * {@code RATE_LIMITED} pauses the chat like a 429 on a message does.
     */
    default void typing(Route route) throws Exception {
    }

    /**
     * The gateway accepted the message {@code route} replies to (it passed dedupe, access and
     * admission and was recorded; commands, duplicates, denials and refusals are not accepted).
     * Called once per accepted message, in the chat's outbox sequence, so it never comes after
     * {@link #settled} for the same message. For a per-message progress marker (Slack's 👀).
     * Only called when {@link ChannelCapabilities#tracksMessages()} says so.
     */
    default void accepted(Route route) throws Exception {
    }

    /**
     * An accepted message ended, whatever its disposition (answered, collected, steered, dropped,
     * stopped, interrupted, expired, ...). Called once per accepted message, in the chat's outbox
     * sequence after every reply queued for the chat before it ended, so it never overtakes the
     * answer, and after a failure, skip, rejection or expiry notice about the message (a drop
     * notice is sent at the next drain and a {@code /stop} reply after the stop, so those two may
     * come after it). Not called for a message
     * that is still pending when the gateway shuts down (it runs again after the restart), nor for
     * one that was never {@link #accepted}. Only called when
     * {@link ChannelCapabilities#tracksMessages()} says so.
     */
    default void settled(Route route) throws Exception {
    }

    /**
     * How this channel shows receipts (docs/behaviour.md §16.5); read once, when the gateway is
     * built. With {@link ReceiptMode#REACTIONS} the gateway calls {@link #react}; with
     * {@link ReceiptMode#NOTICES} it sends the receipts' texts itself. Default: off.
     */
    default ReceiptMode receipts() {
        return ReceiptMode.OFF;
    }

    /**
     * Makes the message {@code route} replies to show the receipt {@code shown} as a reaction
     * ({@link Receipt#emoji()}) where it showed {@code replaced} (null: nothing of the bot's), or,
     * with {@code shown} null, removes {@code replaced}. Called in the chat's outbox sequence, so a
     * receipt never overtakes the message's answer, and its removal goes right before that answer.
     * Once, no retry: a {@link SendFailure} or any exception is logged once per chat by the gateway
     * and otherwise ignored (a receipt is never worth holding up an answer). A route whose
     * {@code replyToMessageId} is not a message the platform can react to is left alone. Only
     * called when {@link #receipts()} is {@link ReceiptMode#REACTIONS}.
     */
    default void react(Route route, Receipt shown, Receipt replaced) throws Exception {
    }

    /**
     * Stops fetching messages from the platform; called first when the gateway shuts down, long
     * before {@link #stop}, while sending must keep working (replies of runs that finish during
     * the grace period still go out). A channel whose platform keeps what it was not asked for
     * (Telegram keeps every update whose offset was not confirmed) stops asking here, so nothing
     * more arrives; what it has already fetched it hands over before it returns, and it confirms
     * nothing to the platform afterwards. The default does nothing: a channel that would lose
     * messages by stopping keeps delivering them, and the gateway journals what arrives during
     * the shutdown and runs it after the restart. Returns within a few seconds; idempotent.
     */
    default void stopReceiving() {
    }

    /**
     * Where {@code attachment}'s content can be downloaded now (docs/behaviour.md §15.1). Called off the
     * SDK's threads, by whoever needs the content (an agent's run), and may block (Telegram asks the Bot
     * API's {@code getFile}). A part the channel cannot fetch gets an {@link IllegalArgumentException}
     * naming why; a platform that refuses gets the exception the platform's client threw, with no
     * secret in its message. The default: this channel has no files.
     */
    default FileLocation locate(Attachment attachment) throws Exception {
        throw new IllegalArgumentException(name() + " delivers no files");
    }

    /** Whether the channel is connected now (for readiness). */
    default boolean connected() {
        return true;
    }

    /** Disconnects; idempotent. */
    void stop();
}
