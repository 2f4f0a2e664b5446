package dev.laneway.core.agent;

/** Whether a running agent took a steer. */
public enum SteerResult {
    ACCEPTED,
    REFUSED
}
