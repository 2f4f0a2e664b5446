package dev.laneway.agents.pool;

/**
 * The tokens one model call used, as the provider reported them ({@code usage}).
 *
 * @param prompt     {@code prompt_tokens}
 * @param completion {@code completion_tokens}
 */
public record Usage(long prompt, long completion) {

    public static final Usage NONE = new Usage(0, 0);

    public Usage {
        prompt = Math.max(0, prompt);
        completion = Math.max(0, completion);
    }

    public long total() {
        return prompt + completion;
    }
}
