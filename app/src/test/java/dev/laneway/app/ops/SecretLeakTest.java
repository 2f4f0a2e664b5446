package dev.laneway.app.ops;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.config.ConfigLoader;
import dev.laneway.config.ConfigPrinter;
import dev.laneway.config.LanewayConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Known tokens go into the configuration; a run goes through the gateway with the ops server up;
 * neither the JSON log lines nor any ops endpoint may contain a token.
 */
class SecretLeakTest {

    private static final String TELEGRAM_TOKEN = "123456:tg-SECRET-7f3a9c";
    private static final String OPENAI_KEY = "sk-SECRET-91bd44";
    private static final String YAML = """
            agents:
              defaults: { maxConcurrent: 2 }
              list:
                assistant:
                  provider: openai
                  apiKey: ${OPENAI_API_KEY}
                  model: gpt-4o-mini
            channels:
              telegram:
                enabled: true
                token: ${TELEGRAM_BOT_TOKEN}
            """;

    @Test
    void noTokenAppearsInTheLogsOfARun_norInAnyOpsEndpoint() throws Exception {
        LanewayConfig config = ConfigLoader.parse(YAML, "leak-test.yaml",
                Map.of("OPENAI_API_KEY", OPENAI_KEY, "TELEGRAM_BOT_TOKEN", TELEGRAM_TOKEN));
        List<String> outputs = new ArrayList<>();
        String logs;
        try (LogCapture capture = new LogCapture(); OpsFixture ops = new OpsFixture(config.toGatewaySettings())) {
            var startLog = LoggerFactory.getLogger("dev.laneway.app.GatewayApp");
            startLog.info("laneway started: config={}", config);
            startLog.info("effective config:\n{}", ConfigPrinter.effectiveYaml(config));
            ops.dm("alice", "hello");
            ops.time.advanceMillis(1500);
            ops.completeOpenRuns();
            for (String path : List.of("/healthz", "/readyz", "/metrics", "/status", "/capabilities", "/nope")) {
                outputs.add(ops.get(path).body());
            }
            logs = capture.text();
        }

        assertTrue(logs.contains("run finished"), "the run's INFO line was captured: " + logs);
        assertTrue(logs.contains("ops endpoint listening"), logs);
        assertTrue(logs.contains("***"), "the secrets were logged, masked");
        ObjectMapper json = new ObjectMapper();
        for (String line : logs.split("\n")) {
            assertTrue(json.readTree(line).has("level"), "every log line is one JSON object: " + line);
        }
        outputs.add(logs);
        for (String output : outputs) {
            for (String secret : List.of(TELEGRAM_TOKEN, OPENAI_KEY, "SECRET")) {
                assertFalse(output.contains(secret), "leaked " + secret + " in:\n" + output);
            }
        }
    }
}
