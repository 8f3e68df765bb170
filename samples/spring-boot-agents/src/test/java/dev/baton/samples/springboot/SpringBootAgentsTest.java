package dev.baton.samples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The sample as the README drives it: the application on a free port, with the scripted demo model
 * whatever keys the environment holds, answering the README's curl turn.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      // The demo model and sessions in memory, whatever the environment sets.
      "sample.model=",
      "baton.googleai.enabled=false",
      "baton.openai.enabled=false",
      "baton.anthropic.enabled=false",
      "baton.vertexai.enabled=false",
      "spring.datasource.url="
    })
class SpringBootAgentsTest {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @LocalServerPort int port;

  @Test
  void theCoordinatorAnswersATurnAfterDelegating() throws IOException, InterruptedException {
    JsonNode answer =
        post(
            "/baton/agents/coordinator",
            "{\"data\": {\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"virtual"
                + " threads\"}]}}}");

    JsonNode result = answer.path("result");
    assertThat(result.path("finishReason").asString()).isEqualTo("stop");
    assertThat(result.path("sessionId").asString()).isNotBlank();
    // The demo coordinator's answer quotes the researcher's notes, so both delegations ran.
    assertThat(result.path("message").path("content").path(0).path("text").asString())
        .startsWith("Here is what the team found.")
        .contains("virtual threads")
        .contains("what it is, in one sentence");
  }

  @Test
  void theCommanderFoldsInItsBackgroundInvestigations() throws IOException, InterruptedException {
    JsonNode answer =
        post(
            "/baton/agents/commander",
            "{\"data\": {\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"checkout-api"
                + " is throwing 500s\"}]}}}");

    assertThat(
            answer.path("result").path("message").path("content").path(0).path("text").asString())
        .startsWith("Incident summary for checkout-api:")
        .contains("PaymentClientTimeout")
        .contains("v2.14.0");
  }

  private JsonNode post(String path, String body) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.parse(response.body());
  }
}
