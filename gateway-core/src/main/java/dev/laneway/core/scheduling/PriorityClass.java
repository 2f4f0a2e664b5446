package dev.laneway.core.scheduling;


/**
 * How urgently a run wants a slot of {@code main} (docs/behaviour.md §11). The {@code main} lane serves
 * a higher class first; within a class it shares slots among tenants.
 */
public enum PriorityClass {
    /** Someone is waiting in front of the chat: DMs, mentions, replies to the bot, slash commands. */
    INTERACTIVE,
    /** Group traffic that engages the bot without a mention. */
    NORMAL,
    /** Nobody is waiting for it right now: scheduled jobs. */
    BACKGROUND;

    /** How many classes there are (array sizes). */
    public static final int COUNT = values().length;

    private static final PriorityClass[] ALL = values();

    /**
     * The class a run moves up to once it has waited longer than the aging bound: background moves
     * to normal; normal and interactive stay (nothing ages into interactive).
     */
    public PriorityClass promoted() {
        return this == BACKGROUND ? NORMAL : this;
    }

    /** The more urgent of the two. */
    public PriorityClass mostUrgent(PriorityClass other) {
        return other.ordinal() < ordinal() ? other : this;
    }

    /** The configuration name ({@code interactive}, {@code normal}, {@code background}). */
    public String configName() {
        return ConfigNames.of(this);
    }

    /** The class of a configuration name, or null for an unknown one. */
    public static PriorityClass byConfigName(String name) {
        return ConfigNames.find(ALL, name);
    }

    static PriorityClass of(int ordinal) {
        return ALL[ordinal];
    }
}
