package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** The {@code baton} health and info as Actuator serves them over HTTP. */
@SpringBootTest(
    classes = TestApplication.class,
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = {
      "management.endpoints.web.exposure.include=health,info",
      "management.endpoint.health.show-details=always",
      "baton.googleai.api-key=" + BatonActuatorEndpointsTest.KEY,
      "baton.openai.enabled=false",
      "baton.anthropic.enabled=false",
      "baton.vertexai.enabled=false",
      "GENKIT_ENV=",
      // Spring Security is on the class path: it lets anyone see the health, only users the info.
      "spring.security.user.name=ops",
      "spring.security.user.password=" + BatonActuatorEndpointsTest.PASSWORD
    })
class BatonActuatorEndpointsTest {
  static final String KEY = "test-gemini-key-never-shown";
  static final String PASSWORD = "ops-password";

  private final HttpClient http = HttpClient.newHttpClient();
  @LocalServerPort private int port;

  @Test
  void healthIsUpWithTheStoreReachedAndThePluginConfiguredWithoutItsKey() throws Exception {
    HttpResponse<String> response = get("/actuator/health");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).doesNotContain(KEY);
    JsonNode baton = Json.mapper().readTree(response.body()).path("components").path("baton");
    assertThat(baton.path("status").asString()).isEqualTo("UP");
    assertThat(baton.path("details").path("store").path("status").asString())
        .isEqualTo("reachable");
    assertThat(baton.path("details").path("plugins").path("googleai").asString())
        .isEqualTo("configured");
  }

  @Test
  void infoListsTheAgentsFlowsModelsAndVersion() throws Exception {
    HttpResponse<String> response = get("/actuator/info");

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode baton = Json.mapper().readTree(response.body()).path("baton");
    assertThat(baton.path("version").asString()).isNotBlank().doesNotContain("${");
    assertThat(baton.path("agents").findValuesAsString("name"))
        .containsExactly(TestApplication.ASSISTANT);
    assertThat(baton.path("flows").toString()).contains(TestApplication.SHOUT);
    assertThat(baton.path("models").toString()).contains(TestApplication.MODEL);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString(("ops:" + PASSWORD).getBytes(StandardCharsets.UTF_8)))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
