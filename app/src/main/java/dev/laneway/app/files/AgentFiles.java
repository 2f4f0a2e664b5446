package dev.laneway.app.files;

import dev.laneway.agents.command.CommandAgent;
import dev.laneway.agents.files.ChannelFileLoader;
import dev.laneway.agents.files.FileReading;
import dev.laneway.agents.files.Transcriber;
import dev.laneway.agents.openai.OpenAiAgent;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AttachmentLoader;
import dev.laneway.core.agent.settings.AttachmentSettings;
import dev.laneway.core.channel.ChannelAdapter;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Gives the agents their way to attachments (docs/behaviour.md §15, docs/architecture.md §6): one
 * {@link ChannelFileLoader} over the running channels, the {@code openai} agents a {@link FileReading}
 * (with the transcription endpoint when one is configured), the {@code command} agents the loader and
 * {@code <dataDir>/attachments} for their runs' files. The {@code echo} agent needs none: its answer
 * lists the files' markers.
 */
public final class AgentFiles {

    private AgentFiles() {
    }

    /** The directory under {@code dataDir} where runs' files live while they run. */
    public static Path directory(Path dataDir) {
        return dataDir.resolve("attachments");
    }

    public static AttachmentLoader wire(Collection<Agent> agents, Collection<ChannelAdapter> channels,
                                        AttachmentSettings settings, Path dataDir) {
        Map<String, ChannelAdapter> byName = new LinkedHashMap<>();
        channels.forEach(channel -> byName.put(channel.name(), channel));
        ChannelFileLoader loader = ChannelFileLoader.create(byName, settings);
        Transcriber transcriber = settings.transcription() == null ? null : Transcriber.create(settings.transcription());
        FileReading reading = new FileReading(loader, settings, transcriber);
        for (Agent agent : agents) {
            if (agent instanceof OpenAiAgent openai) {
                openai.readingFiles(reading);
            } else if (agent instanceof CommandAgent command) {
                command.readingFiles(loader, directory(dataDir));
            }
        }
        return loader;
    }
}
