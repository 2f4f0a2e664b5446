package dev.laneway.core;

/** Who may steer an active run: anyone in the session, or only the run's own sender. */
public enum SteerScope {
    SESSION,
    SENDER
}
