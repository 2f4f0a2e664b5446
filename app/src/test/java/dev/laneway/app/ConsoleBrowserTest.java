package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.core.testing.Await;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * The operator console in a real browser (docs/behaviour.md §18): headless Chromium, driven by
 * Selenium through Debian's chromedriver, against the real {@link GatewayApp} with the console
 * channel on pipes. The page loads without a console error, its live numbers move as messages
 * flow, and an admin action is refused without the token and done with it.
 *
 * <p>Needs {@code chromium} and {@code chromedriver} ({@code scripts/need-chromium.sh}, run by
 * {@code ./run-tests}, installs them); {@code LANEWAY_CHROME} and {@code LANEWAY_CHROMEDRIVER} point
 * elsewhere. Never skipped: without them the test fails saying what to install.
 */
class ConsoleBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static WebDriver browser;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBrowser() {
        String chrome = locate("LANEWAY_CHROME", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome");
        String driver = locate("LANEWAY_CHROMEDRIVER", "/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chrome);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
                "--window-size=1280,1024");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(driver))
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(WAIT).scriptTimeout(WAIT);
    }

    private static String locate(String variable, String... candidates) {
        String configured = System.getenv(variable);
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        for (String candidate : candidates) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new AssertionError("the console's browser tests need chromium and chromedriver: run scripts/need-chromium.sh"
                + " (Debian: apt-get install chromium chromium-driver), or set " + variable);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    private String yaml(int echoDelayMs) {
        return """
                gateway:
                  dataDir: %s
                  http: { bind: 127.0.0.1, port: 0, adminToken: %s }
                agents:
                  list:
                    assistant: { provider: echo, delayMs: %d }
                messages:
                  queue: { debounceMs: 0, mode: followup }
                schedules:
                  - id: nightly
                    every: 1h
                    target: { channel: console, chat: console }
                    prompt: ping
                """.formatted(dir.resolve("data"), ConsoleApiTest.TOKEN, echoDelayMs);
    }

    private void open(InProcessApp app) {
        browser.get("http://127.0.0.1:" + app.app().opsPort() + "/");
        Await.until("the console is live", WAIT, () -> text("conn").equals("live"));
    }

    private static String text(String id) {
        return text(By.id(id));
    }

    /** The element's text; empty while the page is replacing it (a table redrawn between find and read). */
    private static String text(By element) {
        try {
            return browser.findElement(element).getText();
        } catch (org.openqa.selenium.StaleElementReferenceException | org.openqa.selenium.NoSuchElementException e) {
            return "";
        }
    }

    /** Clicks the element, finding it again if the page redrew it in between. */
    private static void click(By element) {
        Await.until("a click on " + element, WAIT, () -> {
            try {
                browser.findElement(element).click();
                return true;
            } catch (org.openqa.selenium.StaleElementReferenceException | org.openqa.selenium.NoSuchElementException e) {
                return false;
            }
        });
    }

    /** The browser's console messages since the last call (reading them empties the browser's buffer). */
    private static List<String> consoleErrors() {
        List<String> errors = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.WARNING.intValue()) {
                errors.add(entry.getLevel() + " " + entry.getMessage());
            }
        }
        return errors;
    }

    @Test
    void thePageLoadsWithoutConsoleErrors_andItsLiveNumbersMove_asMessagesFlow() throws Exception {
        try (InProcessApp app = new InProcessApp(yaml(1500), Map.of()).start()) {
            consoleErrors(); // what an earlier page left behind
            open(app);
            assertEquals("0", text("stat-dispositions"));
            assertEquals("0", text("stat-busy"));
            assertTrue(text("jobs").contains("nightly"), text("jobs"));
            assertTrue(text("lanes").contains("main"), text("lanes"));
            assertTrue(text("classes").contains("interactive"), text("classes"));

            app.type("first");
            app.type("second");
            app.type("third");
            Await.until("the conversation with its queue shows", WAIT, () -> text("stat-busy").equals("1")
                    && browser.findElements(By.cssSelector("#conversations tbody tr")).size() == 1
                    && text("conversations").contains("followup"));
            String conversation = text(By.cssSelector("#conversations tbody tr"));
            assertTrue(conversation.contains("console:"), conversation);

            app.awaitLine("echo: third", WAIT);
            Await.until("three dispositions show", WAIT, () -> text("stat-dispositions").equals("3"));
            List<WebElement> rows = browser.findElements(By.cssSelector("#dispositions tbody tr"));
            assertEquals(3, rows.size());
            for (WebElement row : rows) {
                assertTrue(row.getText().contains("RAN"), row.getText());
                assertTrue(row.getText().endsWith("hidden"), "the text is hidden: " + row.getText());
                assertFalse(row.getText().contains("first") || row.getText().contains("third"), row.getText());
            }
            Await.until("the charts and the counters move", WAIT, () -> text("stat-ended").equals("3")
                    && !text("peak-throughput").equals("0")
                    && browser.findElements(By.cssSelector("#chart-throughput polyline")).size() == 2);
            Path shot = Path.of("target", "console.png"); // for a person to look at; nothing reads it
            Files.write(shot, ((org.openqa.selenium.TakesScreenshot) browser).getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
            Await.until("the conversation is gone once answered", WAIT, () -> text("stat-busy").equals("0"));

            List<Long> latencies = new ArrayList<>();
            for (Object value : (List<?>) ((JavascriptExecutor) browser).executeScript(
                    "return Array.from(document.querySelectorAll('#dispositions tbody tr')).map(r => Number(r.dataset.latencyMs));")) {
                latencies.add(((Number) value).longValue());
            }
            System.out.println("console: disposition to its row in the page, ms: " + latencies);
            assertEquals(List.of(), consoleErrors(), "no console errors or warnings");
        }
    }

    @Test
    void anAdminAction_isRefusedWithoutTheToken_andDoneWithIt_andTheTokenShowsMessageText() throws Exception {
        try (InProcessApp app = new InProcessApp(yaml(0), Map.of()).start()) {
            consoleErrors();
            open(app);
            By jobButton = By.cssSelector("#jobs tr[data-job=nightly] button");
            Await.until("the job shows", WAIT, () -> text(jobButton).equals("Pause"));
            click(jobButton);
            Await.until("the refusal shows", WAIT, () -> text("notice").startsWith("Refused:"));
            assertEquals("Refused: this needs the admin token: send the header Authorization: Bearer"
                    + " <gateway.http.adminToken>", text("notice"));
            assertFalse(job(app).get("paused").asBoolean(), "nothing changed");
            List<String> refusedErrors = consoleErrors();
            assertTrue(refusedErrors.stream().allMatch(e -> e.contains("/admin/jobs/pause") && e.contains("401")),
                    "only the refused request itself: " + refusedErrors);

            browser.findElement(By.id("token")).sendKeys(ConsoleApiTest.TOKEN);
            click(By.id("token-use"));
            Await.until("the token is taken", WAIT, () -> text("notice").startsWith("Token set"));
            click(jobButton);
            Await.until("the pause is done", WAIT, () -> text("notice").equals("Done: pause job nightly."));
            assertTrue(job(app).get("paused").asBoolean());
            Await.until("the job shows as paused", WAIT, () -> text(By.cssSelector("#jobs tr[data-job=nightly]"))
                    .contains("paused") && text(jobButton).equals("Resume"));

            click(By.id("show-text"));
            Await.until("the stream is back", WAIT, () -> text("conn").equals("live"));
            app.type("visible to the operator");
            app.awaitLine("echo: visible to the operator", WAIT);
            Await.until("the text shows", WAIT, () -> text("dispositions").contains("visible to the operator"));
            assertEquals(List.of(), consoleErrors(), "no console errors or warnings with the token");
        }
    }

    private JsonNode job(InProcessApp app) throws Exception {
        return JSON.readTree(app.get("/status").body()).get("jobs").get(0);
    }
}
