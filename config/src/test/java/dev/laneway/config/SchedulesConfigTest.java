package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static dev.laneway.config.Configs.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.laneway.core.jobs.Every;
import dev.laneway.core.jobs.IfBusy;
import dev.laneway.core.jobs.JobTarget;
import dev.laneway.core.jobs.ScheduledJob;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code schedules:} (docs/configuration.md §14): what a valid list binds to, and every problem
 * {@code laneway validate} reports, with its line and column.
 */
class SchedulesConfigTest {

    private static final String CHANNELS = """
            channels:
              telegram: { enabled: true, token: "123:abc" }
            agents:
              list:
                assistant: { provider: echo }
                digest: { provider: echo, delayMs: 10 }
            """;

    private static String withJobs(String schedules) {
        return CHANNELS + "schedules:\n" + schedules;
    }

    @Test
    void aValidListBindsEveryKey_withTheDefaults() throws Exception {
        LanewayConfig config = parse(withJobs("""
                  - id: morning
                    cron: "0 8 * * 1-5"
                    timezone: Europe/Berlin
                    target: { channel: telegram, chat: "-1001234567890", thread: 7 }
                    prompt: "Summarise what happened overnight."
                    agent: digest
                    ifBusy: skip
                    catchUp: 1h
                  - id: pulse
                    every: 30m
                    target: { channel: telegram, chat: "42", space: " team-1 " }
                    prompt: ping
                """));
        List<ScheduledJob> jobs = config.schedules();
        assertEquals(2, jobs.size());
        ScheduledJob morning = jobs.get(0);
        assertEquals(CronSchedule.parse("0 8 * * 1-5", ZoneId.of("Europe/Berlin")), morning.schedule());
        assertEquals(ZoneId.of("Europe/Berlin"), morning.zone());
        assertEquals(new JobTarget("telegram", "-1001234567890", "7"), morning.target());
        assertEquals("digest", morning.agent());
        assertEquals(IfBusy.SKIP, morning.ifBusy());
        assertEquals(Duration.ofHours(1), morning.catchUp());
        ScheduledJob pulse = jobs.get(1);
        assertEquals(new Every(Duration.ofMinutes(30)), pulse.schedule());
        assertEquals(new JobTarget("telegram", "42", null, "team-1"), pulse.target(), "a target may name its space");
        assertEquals(ZoneOffset.UTC, pulse.zone());
        assertNull(pulse.agent());
        assertEquals(IfBusy.WAIT, pulse.ifBusy());
        assertEquals(Duration.ZERO, pulse.catchUp());
    }

    @Test
    void configShowPrintsTheJobs_andLoadsBackEqual() throws Exception {
        LanewayConfig config = parse(withJobs("""
                  - id: morning
                    cron: "0 8 * * 1-5"
                    timezone: Europe/Berlin
                    target: { channel: telegram, chat: "-100", thread: "7" }
                    prompt: "Summarise."
                    agent: digest
                    catchUp: 1h
                  - id: pulse
                    every: 30m
                    target: { channel: telegram, chat: "42", space: "team-1" }
                    prompt: ping
                """));
        LanewayConfig again = parse(ConfigPrinter.effectiveYaml(config).replace("token: '***'", "token: \"123:abc\"")
                .replace("token: \"***\"", "token: \"123:abc\""));
        assertEquals(config.schedules(), again.schedules());
    }

    @Test
    void anInvalidCronExpression_saysWhatIsWrong() {
        assertEquals("laneway.yaml: schedules[0].cron: invalid cron expression \"61 8 * * *\": value 61 not in range"
                        + " [0, 59] (" + CronSchedule.FIELDS + ") (line 9, column 11)",
                onlyProblem(withJobs("""
                          - id: morning
                            cron: "61 8 * * *"
                            target: { channel: telegram, chat: "1" }
                            prompt: p
                        """)));
        assertEquals("laneway.yaml: schedules[0].cron: invalid cron expression \"0 8 * *\": it has 4 field(s), not 5 ("
                        + CronSchedule.FIELDS + ") (line 9, column 11)",
                onlyProblem(withJobs("""
                          - id: morning
                            cron: "0 8 * *"
                            target: { channel: telegram, chat: "1" }
                            prompt: p
                        """)));
        assertEquals("laneway.yaml: schedules[0].cron: invalid cron expression \"0 0 30 2 *\": it never fires: no date"
                        + " matches it (line 9, column 11)",
                onlyProblem(withJobs("""
                          - id: morning
                            cron: "0 0 30 2 *"
                            target: { channel: telegram, chat: "1" }
                            prompt: p
                        """)));
    }

    @Test
    void bothOrNeitherOfCronAndEvery_isAProblem() {
        assertEquals("laneway.yaml: schedules[0].every: a job has either cron or every, not both (line 10, column 5)",
                onlyProblem(withJobs("""
                          - id: morning
                            cron: "0 8 * * *"
                            every: 1h
                            target: { channel: telegram, chat: "1" }
                            prompt: p
                        """)));
        assertEquals("laneway.yaml: schedules[0].cron: required: a cron expression (cron: \"0 8 * * 1-5\") or an"
                        + " interval (every: 30m) (line 8, column 5)",
                onlyProblem(withJobs("""
                          - id: morning
                            target: { channel: telegram, chat: "1" }
                            prompt: p
                        """)));
    }

    @Test
    void anUnknownTimeZone_suggestsTheCloseOne() {
        assertEquals("laneway.yaml: schedules[0].timezone: unknown time zone \"Europe/Berln\", did you mean"
                        + " \"Europe/Berlin\"? (line 10, column 15)",
                onlyProblem(withJobs("""
                          - id: morning
                            cron: "0 8 * * *"
                            timezone: Europe/Berln
                            target: { channel: telegram, chat: "1" }
                            prompt: p
                        """)));
    }

    @Test
    void aTargetChannelThatIsNotConfigured_orNotAChannel_isAProblem() {
        assertEquals("laneway.yaml: schedules[0].target.channel: channel discord is not enabled, so the job could not"
                        + " post there (set channels.discord.enabled: true) (line 10, column 24)",
                onlyProblem(withJobs("""
                          - id: morning
                            cron: "0 8 * * *"
                            target: { channel: discord, chat: "1" }
                            prompt: p
                        """)));
        assertEquals("laneway.yaml: schedules[0].target.channel: unknown channel \"telegrm\", did you mean \"telegram\"?"
                        + " (line 10, column 24)",
                onlyProblem(withJobs("""
                          - id: morning
                            cron: "0 8 * * *"
                            target: { channel: telegrm, chat: "1" }
                            prompt: p
                        """)));
    }

    @Test
    void anUnknownAgent_isAProblem() {
        assertEquals("laneway.yaml: schedules[0].agent: no agent named \"digets\" in agents.list, did you mean"
                        + " \"digest\"? (agents.list has: assistant, digest) (line 12, column 12)",
                onlyProblem(withJobs("""
                          - id: morning
                            cron: "0 8 * * *"
                            target: { channel: telegram, chat: "1" }
                            prompt: p
                            agent: digets
                        """)));
    }

    @Test
    void aDuplicateId_isReportedAtTheSecondOne() {
        assertEquals("laneway.yaml: schedules[1].id: duplicate id \"morning\" (first used at line 8): every job needs"
                        + " its own id (line 12, column 9)",
                onlyProblem(withJobs("""
                          - id: morning
                            cron: "0 8 * * *"
                            target: { channel: telegram, chat: "1" }
                            prompt: p
                          - id: morning
                            every: 1h
                            target: { channel: telegram, chat: "2" }
                            prompt: q
                        """)));
    }

    @Test
    void aNegativeCatchUp_andAnIfBusyOtherThanWaitOrSkip_areProblems() {
        List<ConfigProblem> problems = problems(withJobs("""
                  - id: morning
                    cron: "0 8 * * *"
                    target: { channel: telegram, chat: "1" }
                    prompt: p
                    catchUp: -1h
                    ifBusy: queue
                """));
        assertEquals(List.of(
                "laneway.yaml: schedules[0].catchUp: must not be negative, got \"-1h\" (0 means a fire missed while"
                        + " the gateway was down is not run) (line 12, column 14)",
                "laneway.yaml: schedules[0].ifBusy: must be one of wait, skip, got \"queue\" (line 13, column 13)"),
                problems.stream().map(p -> p.format(Configs.SOURCE)).toList());
    }

    @Test
    void missingRequiredKeys_andAScheduleThatIsNotAList_areProblems() {
        List<ConfigProblem> problems = problems(withJobs("""
                  - cron: "0 8 * * *"
                    target: { chat: "1" }
                """));
        assertEquals(List.of(
                "laneway.yaml: schedules[0].id: required (a name for the job, e.g. id: morning) (line 8, column 5)",
                "laneway.yaml: schedules[0].prompt: required (the text the agent gets at each fire) (line 8, column 5)",
                "laneway.yaml: schedules[0].target.channel: required (console, telegram, discord, slack) (line 9, column 5)"),
                problems.stream().map(p -> p.format(Configs.SOURCE)).toList());
        assertEquals("laneway.yaml: schedules: must be a list of jobs (lines starting with \"- id: …\"), got a mapping"
                + " (line 8, column 3)", onlyProblem(CHANNELS + "schedules:\n  morning: {}\n"));
    }
}
