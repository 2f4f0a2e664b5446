package dev.laneway.agents.files;

import dev.laneway.core.Attachment;
import dev.laneway.core.agent.AttachmentLoader;
import dev.laneway.core.agent.LoadedFile;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.agent.settings.AttachmentSettings;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.FileLocation;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches a message's attachments through the channel that made them (docs/behaviour.md §15.1): the
 * channel names where the content is ({@link ChannelAdapter#locate}), one bounded GET fetches it
 * ({@link BoundedDownload}), and its first bytes are checked against the declared type
 * ({@link MediaSniffer}). A file larger than {@code maxFileBytes}, or than what is left of the
 * message's {@code maxMessageBytes}, is refused before or while it downloads; each file may take
 * {@code fetchTimeout}, locating included. Every failure is a {@link LoadedFile} with a reason, so the
 * rest of the message still goes to the agent, and one INFO line (channel, kind, declared size,
 * reason: never the name's URL or the content).
 *
 * <p>Thread-safe and stateless between calls: the agent's run thread calls {@link #load}; locating runs
 * on a virtual thread of its own so the timeout bounds it too.
 */
public final class ChannelFileLoader implements AttachmentLoader {

    private static final Logger log = LoggerFactory.getLogger(ChannelFileLoader.class);

    private final Map<String, ChannelAdapter> channels;
    private final AttachmentSettings settings;
    private final BoundedDownload download;
    private final ExecutorService locating = Executors.newVirtualThreadPerTaskExecutor();

    public ChannelFileLoader(Map<String, ChannelAdapter> channels, AttachmentSettings settings, HttpClient http) {
        this.channels = Map.copyOf(channels);
        this.settings = settings;
        this.download = new BoundedDownload(http);
    }

    /** With a client of its own that follows redirects (CDNs redirect) and connects within the fetch timeout. */
    public static ChannelFileLoader create(Map<String, ChannelAdapter> channels, AttachmentSettings settings) {
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(settings.fetchTimeout()).build();
        return new ChannelFileLoader(channels, settings, http);
    }

    @Override
    public List<LoadedFile> load(MessageFiles files) {
        ChannelAdapter channel = channels.get(files.channel());
        long left = settings.maxMessageBytes();
        List<LoadedFile> loaded = new ArrayList<>(files.attachments().size());
        for (Attachment attachment : files.attachments()) {
            LoadedFile file = loadOne(channel, attachment, left);
            if (file.ok()) {
                left -= file.content().length;
            } else {
                log.info("attachment not fetched: channel={} kind={} declaredBytes={} reason={}", files.channel(),
                        attachment.kind(), attachment.size(), file.problem());
            }
            loaded.add(file);
        }
        return loaded;
    }

    private LoadedFile loadOne(ChannelAdapter channel, Attachment attachment, long left) {
        if (!attachment.fetchable()) {
            return LoadedFile.failed(attachment, "a " + attachment.kind() + " is not a file the bot can read");
        }
        if (channel == null) {
            return LoadedFile.failed(attachment, "its channel is not running");
        }
        long limit = Math.min(settings.maxFileBytes(), left);
        if (attachment.size() > settings.maxFileBytes()) {
            return LoadedFile.failed(attachment, "larger than " + Attachment.humanSize(settings.maxFileBytes()));
        }
        if (attachment.size() > left || left <= 0) {
            return LoadedFile.failed(attachment, "the message's files together are larger than "
                    + Attachment.humanSize(settings.maxMessageBytes()));
        }
        long started = System.nanoTime();
        FileLocation location;
        try {
            location = within(() -> channel.locate(attachment), settings.fetchTimeout());
        } catch (BoundedDownload.Refused refused) {
            return LoadedFile.failed(attachment, refused.getMessage());
        }
        Duration rest = settings.fetchTimeout().minusNanos(System.nanoTime() - started);
        if (!rest.isPositive()) {
            return LoadedFile.failed(attachment, "the download took longer than "
                    + BoundedDownload.seconds(settings.fetchTimeout()));
        }
        byte[] content;
        try {
            content = download.get(location, attachment, limit, rest, settings.fetchTimeout());
        } catch (BoundedDownload.Refused refused) {
            String reason = refused.getMessage();
            if (reason.startsWith("larger than") && limit < settings.maxFileBytes()) {
                reason = "the message's files together are larger than " + Attachment.humanSize(settings.maxMessageBytes());
            }
            return LoadedFile.failed(attachment, reason);
        }
        MediaSniffer.Verdict verdict = MediaSniffer.judge(attachment.mediaType(), content);
        if (verdict.lied()) {
            return LoadedFile.failed(attachment, "it was sent as " + attachment.mediaType() + " but is "
                    + (verdict.mediaType().equals("application/octet-stream") ? "not one" : verdict.mediaType()));
        }
        String type = verdict.mediaType() != null ? verdict.mediaType()
                : MediaSniffer.isUtf8Text(content) ? "text/plain" : "application/octet-stream";
        return new LoadedFile(attachment, content, type, null, location.shareable() ? location.url().toString() : null);
    }

    /** Runs the channel's locate on a virtual thread, bounded by {@code timeout}. */
    private FileLocation within(Callable<FileLocation> locate, Duration timeout) throws BoundedDownload.Refused {
        Future<FileLocation> future = locating.submit(locate);
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new BoundedDownload.Refused("the platform did not say where the file is within "
                    + BoundedDownload.seconds(timeout));
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new BoundedDownload.Refused("the download was interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            // a channel's own reasons (ChannelAdapter.locate): redacted, safe to show and log
            if (cause instanceof IllegalArgumentException || cause instanceof java.io.IOException) {
                throw new BoundedDownload.Refused(cause.getMessage());
            }
            throw new BoundedDownload.Refused("the platform could not say where the file is");
        }
    }
}
