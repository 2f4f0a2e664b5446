/**
 * The lane engine: what happens to one inbound message, from {@link Gateway#accept} to its settle.
 * Read this first; the behaviour is in {@code docs/behaviour.md}, the map in {@code docs/architecture.md}.
 *
 * <h2>The life of a message</h2>
 * <ol>
 *   <li><b>Accept</b> (channel's thread). A channel converts a platform event into an
 *       {@code InboundMessage} and calls {@link Gateway#accept}, which hands it to {@link Reception}.
 *       In order: dedupe ({@link DedupeCache}, then the journal's {@code seen}) → {@code DUPLICATE};
 *       {@link AccessPolicy} → {@code DENIED}; the session key ({@code SessionScope}) and sender
 *       authority ({@link Authorization}); a text starting with {@code /} goes to the
 *       {@code CommandHandler}: a command is answered through the {@link Outbox} and ends
 *       {@code COMMAND}, an inline directive strips its prefix and sets this message's settings;
 *       {@link Admission} → {@code REJECTED_BUSY} with the busy notice. An admitted message gets a
 *       {@link Ticket}, its settings are resolved (inline, session override, byChannel, global,
 *       defaults), and its {@code JournalEntry} is appended; {@code accept} waits for the commit
 *       (only then is the message accepted) and the channel's {@code accepted} hook is queued. A
 *       failure at any step still ends the message in one disposition ({@link Intake}).</li>
 *   <li><b>Offer</b> (same thread, session lock). The message, as a {@link QueuedItem}, goes to its
 *       session's {@link SessionQueue} (made on demand; an idle one rests for the chat's next message
 *       and retires after a minute, {@link RestingSessions}). With
 *       inbound debounce on and the session idle it waits in its sender's buffer
 *       ({@link InboundDebounce}; the scheduler's thread offers the burst later as one item). An idle
 *       session starts a run now; a busy one decides by the item's mode: {@link Steering} (into the
 *       run, else a followup), the {@link FollowupQueue} (cap and drop, with a group sender's part of
 *       the cap), or {@link Interrupts}.</li>
 *   <li><b>Run</b>. A {@link Turn} (one item, a collect batch or an overflow summary, with its prompt
 *       and route) becomes a {@link Run}, which holds its session's slot (the session's one active
 *       run: the lane {@code session:<key>}, no lane object); {@link RunDriver} asks for {@code main};
 *       a grant arrives at once, or later on the thread that freed the slot. Holding both, the
 *       agent is started on the executor (a virtual thread) through {@link AgentCalls}; its replies
 *       go through {@link GatedRunEvents} to the outbox (dropped once the run is aborted). The
 *       completion comes back on the executor: the next agent of the run's ladder when its agent
 *       could not answer ({@link Fallbacks}; the agents and their ladders: {@link AgentRoster}, resolved
 *       from the run's lead message), retry after a backoff (scheduler), or a failure notice, then the
 *       run's end, a {@link RunEnd} the session carries out.</li>
 *   <li><b>Drain</b> (session lock). A run's end starts what comes next: the interrupting
 *       successor, else a drain of the followup queue once its debounce is due (the scheduler's
 *       timer), else the session rests. {@link FollowupQueue#take} picks the next turn, in the
 *       order of its {@link DrainOrder} (arrival order in a DM, senders in turn in a group);
 *       {@link PromptFormatter} writes its prompt; {@link NoticeSender} owes drop notices.</li>
 *   <li><b>Settle</b>. Every message ends exactly once: {@link Settlement#settle} records its
 *       {@code Disposition} on the ticket and gives its admission slot back at once; after the
 *       session lock is released the journal record (for an answered message only once the chat's outbox
 *       has delivered what came before it), the listeners and metrics, and the channel's
 *       {@code settled} hook follow. A notice about a message is queued before its settle.</li>
 *   <li><b>Send</b> (executor, one drain task per chat). The {@link Outbox} sends each chat's replies
 *       in order, chunked at the channel's limit, and runs the actions queued behind them. A chat
 *       that streams gets its run's deltas as a {@link LiveAnswer}: each reply is a {@link LiveSegment}
 *       whose updates (send, then edit; a draft or a stream finished by a last "keep") wait in the same
 *       queue, paced like chunks (docs/behaviour.md §16); each reply's last message is recorded in the
 *       journal by its {@link LiveTrace} until its message ends, so {@link JournalRestore} marks it
 *       interrupted after a crash (§16.3). It holds
 *       a channel's replies until {@link ChannelStarter} has started it, and everything at shutdown.</li>
 * </ol>
 *
 * <h2>Shapes</h2>
 * {@code InboundMessage} (the channel's) → {@code JournalEntry} (what the journal keeps: message,
 * text for the agent, resolved settings, authority, accepted-at) → {@link Ticket} (one message on
 * its way to a disposition) → {@link QueuedItem} (one or more tickets: a message or an inbound burst;
 * what queues) → {@link Turn} (what one run answers) → {@link Run} (the turn's life: lanes, agent,
 * retries, abort). The agent sees a {@code RunRequest} and {@code SteerMessage}s.
 *
 * <h2>States and who decides</h2>
 * A session ({@link SessionQueue.State}: idle, debouncing, running, interrupting, draining,
 * retired) and a run ({@link Run.State}: waiting, starting, running, retry-wait, shutting down,
 * aborting, ended, aborted) are state machines, each with a table of legal moves and one
 * transition method that throws on any other (tables in {@code docs/architecture.md} §3a).
 * {@link SessionQueue} alone changes its session's state; its helpers return decisions
 * ({@code FollowupQueue.Offer}/{@code Drain}/{@code Cleared}, a {@link RunEnd}) instead of
 * writing its fields, and no engine class calls back into one that calls it
 * ({@code EngineCallGraphTest}).
 *
 * <h2>Threads and locks</h2>
 * Channel threads call {@code accept}; the executor runs agent starts and completions and the
 * outbox; one scheduler thread runs every timer; a delayed lane grant runs on the releasing thread. Each
 * session's state (its {@link SessionQueue}, helpers and runs) is guarded by its {@link SessionLock}.
 * Decisions are made under it; side effects (sends, lane requests and releases, aborts, agent
 * starts, settles' records) are collected in {@link Effects} and run, in order, once it is released.
 * The one foreign call under the lock is {@code AgentRun.steer}, which must not block.
 * The restore ({@link JournalRestore}) runs once, on the thread that starts the gateway, before any
 * channel takes traffic; {@link Gateway#shutdown} waits on {@link IdleSignal}.
 *
 * <h2>Glossary</h2>
 * <dl>
 *   <dt>session</dt><dd>the unit of serialization: one active run per session key.</dd>
 *   <dt>lane</dt><dd>a named FIFO with a cap: {@code main}; a session's {@code session:<key>} (1)
 *       is its active run.</dd>
 *   <dt>busy</dt><dd>a session with an active run, queued items or summaries, or an interrupting
 *       successor; an idle session rests about a minute (not busy), then retires.</dd>
 *   <dt>audience</dt><dd>a conversation plus sender authority ({@link Audience}); turns, steers and
 *       summaries never mix audiences.</dd>
 *   <dt>trusted</dt><dd>the sender may change settings here: the sender authority.</dd>
 *   <dt>successor</dt><dd>an {@code interrupt} message waiting for the aborted run to end.</dd>
 *   <dt>drain</dt><dd>taking the next turn off the followup queue after a run.</dd>
 *   <dt>rotation</dt><dd>a group queue's round robin of senders ({@link SenderRotation}).</dd>
 *   <dt>overflow summary</dt><dd>one line per item dropped by {@code drop: summarize} ({@link Overflow}).</dd>
 *   <dt>settle</dt><dd>ending a message with its disposition, exactly once.</dd>
 *   <dt>answered</dt><dd>ended {@code RAN}, {@code COLLECTED} or {@code STEERED}: the journal keeps
 *       a record so a redelivery is recognised, and the message never runs again.</dd>
 *   <dt>effects</dt><dd>side effects decided under a session lock, run after it.</dd>
 *   <dt>receipt</dt><dd>what a message shows until its answer (queued, merged, steered, running,
 *       dropped, shed): {@link Receipts}, in the chat's outbox order (docs/behaviour.md §16.5).</dd>
 *   <dt>ladder</dt><dd>the agents a run may answer on: the one its lead message is bound to, then its
 *       fallbacks, each once (docs/behaviour.md §13).</dd>
 * </dl>
 */
package dev.laneway.core.engine;
