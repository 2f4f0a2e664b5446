package dev.laneway.agents.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.core.LiveCheck;
import dev.laneway.core.UrlRedactor;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks an OpenAI-compatible server whether it answers and serves a model ({@code GET {baseUrl}/models}),
 * for {@code laneway doctor} and {@code laneway init} (docs/configuration.md §18.2). Works with
 * OpenAI, Ollama ({@code http://127.0.0.1:11434/v1}), vLLM, llama.cpp's server and LM Studio, which
 * all list their models there. The key is sent as a bearer token and never quoted; the URL is
 * quoted with its credentials masked. Stateless.
 */
public final class ModelCheck {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LISTED = 10;

    private ModelCheck() {
    }

    public static LiveCheck check(String baseUrl, String apiKey, String model, Duration timeout) {
        String root = baseUrl.strip().replaceAll("/+$", "");
        String shown = UrlRedactor.redact(root);
        URI uri;
        try {
            uri = URI.create(root + "/models");
        } catch (IllegalArgumentException e) {
            return LiveCheck.failed("the base URL " + shown + " is not a URL", "fix baseUrl");
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
        if (apiKey != null && !apiKey.isBlank()) {
            request.header("Authorization", "Bearer " + apiKey.strip());
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
        try (http) {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            int status = response.statusCode();
            if (status == 401 || status == 403) {
                return LiveCheck.failed(shown + " refused the API key (" + status + ")",
                        "check the agent's apiKey (the variable it names, e.g. OPENAI_API_KEY)");
            }
            if (status == 404) {
                return LiveCheck.failed(shown + "/models does not exist (404)", "baseUrl must be the API's root,"
                        + " ending in /v1 for most servers (Ollama: http://127.0.0.1:11434/v1)");
            }
            if (status != 200) {
                return LiveCheck.failed(shown + "/models answered HTTP " + status, "try again later; if it stays,"
                        + " check baseUrl and the server's log");
            }
            List<String> served = models(response.body());
            if (served == null) {
                return LiveCheck.failed(shown + "/models answered something that is not a model list",
                        "check that baseUrl points at an OpenAI-compatible API");
            }
            if (served.contains(model) || served.contains(model + ":latest")) {
                return LiveCheck.passed("reachable, and it serves " + model);
            }
            String list = served.isEmpty() ? "none" : String.join(", ", served.subList(0, Math.min(LISTED, served.size())))
                    + (served.size() > LISTED ? ", ... (" + served.size() + " in all)" : "");
            return LiveCheck.failed("reachable, but it does not serve " + model + " (it has: " + list + ")",
                    "set model to one it has, or add it to the server (Ollama: ollama pull " + model + ")");
        } catch (HttpTimeoutException e) {
            return LiveCheck.failed("no answer from " + shown + " within " + timeout.toSeconds() + "s",
                    "start the model server, or fix baseUrl");
        } catch (IOException e) {
            return LiveCheck.failed("cannot reach " + shown + " (" + LiveCheck.mask(LiveCheck.reason(e), apiKey) + ")",
                    "start the model server (Ollama: ollama serve), or fix baseUrl");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return LiveCheck.failed("interrupted", "run it again");
        }
    }

    /** The ids of {@code {"data": [{"id": ...}, ...]}}, or null when the body is not such a list. */
    private static List<String> models(String body) {
        try {
            JsonNode data = JSON.readTree(body).path("data");
            if (!data.isArray()) {
                return null;
            }
            List<String> ids = new ArrayList<>();
            data.forEach(item -> {
                if (item.path("id").isTextual()) {
                    ids.add(item.path("id").asText());
                }
            });
            return ids;
        } catch (IOException e) {
            return null;
        }
    }
}
