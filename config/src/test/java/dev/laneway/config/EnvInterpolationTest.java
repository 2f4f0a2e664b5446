package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static dev.laneway.config.Configs.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvInterpolationTest {

    @Test
    void variableInsideText_isReplacedInPlace() throws Exception {
        assertEquals("/srv/bot/data", parse("gateway: { dataDir: \"${ROOT}/bot/data\" }", Map.of("ROOT", "/srv"))
                .gateway().dataDir().toString());
    }

    @Test
    void setVariable_winsOverItsDefault() throws Exception {
        assertEquals(7, parse("messages: { queue: { cap: \"${CAP:-3}\" } }", Map.of("CAP", "7")).messages().queue().cap());
    }

    @Test
    void interpolatedValue_isValidatedLikeAWrittenOne() {
        assertEquals("laneway.yaml: messages.queue.cap: must be an integer >= 1, got \"zero\" (line 1, column 27)",
                onlyProblem("messages: { queue: { cap: \"${CAP}\" } }", Map.of("CAP", "zero")));
    }

    @Test
    void everyMissingVariableOfAScalar_isReported() {
        List<String> messages = problems("gateway: { dataDir: \"${A}/${B}\" }").stream().map(ConfigProblem::message).toList();
        assertEquals(2, messages.size());
        assertEquals(List.of(true, true), List.of(messages.get(0).contains(" A "), messages.get(1).contains(" B ")));
    }

    @Test
    void malformedReferences_areProblems() {
        assertEquals("laneway.yaml: gateway.dataDir: invalid variable reference \"${1X}\" (use ${NAME} or ${NAME:-default}) (line 1, column 21)",
                onlyProblem("gateway: { dataDir: \"${1X}\" }"));
        assertEquals("laneway.yaml: gateway.dataDir: unterminated variable reference in \"${HOME/data\" (use ${NAME} or ${NAME:-default}) (line 1, column 21)",
                onlyProblem("gateway: { dataDir: \"${HOME/data\" }"));
    }

    @Test
    void keysAreNeverInterpolated() {
        assertEquals("${X}", problems("\"${X}\": 1").getFirst().path());
    }
}
