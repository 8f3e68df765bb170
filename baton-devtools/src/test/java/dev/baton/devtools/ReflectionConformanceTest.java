package dev.baton.devtools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.core.Json;
import dev.baton.testing.ConformanceSuite;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs Genkit's {@code reflection_api.yaml} unchanged against the reflection API over HTTP, the way
 * Genkit's own harness does ({@code tests/src/reflection_api_test.ts}): each test's request is
 * sent, the status must be 200, and the body must equal the expected one once both are normalised
 * as Genkit normalises them (false booleans, empty strings and empty objects dropped) and the keys
 * the harness excludes ({@code inputSchema}, {@code outputSchema}, {@code description}, {@code
 * telemetry}, {@code latencyMs}) are left out.
 */
class ReflectionConformanceTest {
  private static final Set<String> EXCLUDED =
      Set.of("outputSchema", "inputSchema", "description", "telemetry", "latencyMs");

  @TempDir Path project;

  @TestFactory
  Stream<DynamicTest> reflectionSuite() throws Exception {
    ConformanceSuite suite = ConformanceSuite.load("reflection_api.yaml");
    assertThat(suite.root().path("app").asString()).isEqualTo("test_app");
    Files.writeString(project.resolve("pom.xml"), "<project/>");
    DevTools devTools =
        DevTools.start(
            testApp(), Map.of("GENKIT_ENV", "dev", "GENKIT_REFLECTION_PORT", "0"), project);
    ReflectionClient client = new ReflectionClient(devTools.url().orElseThrow());
    return suite.tests().stream()
        .map(
            test ->
                DynamicTest.dynamicTest(
                    test.path("path").asString(),
                    () -> {
                      HttpResponse<String> response =
                          test.has("post")
                              ? client.post(test.path("path").asString(), test.path("post"))
                              : client.get(test.path("path").asString());
                      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                      JsonNode got = normalize(Json.parse(response.body()));
                      JsonNode want = normalize(test.path("body"));
                      assertThat(Json.jsonEquals(got, want))
                          .as("expected %s%nbut got  %s", want, got)
                          .isTrue();
                    }))
        .onClose(devTools::close);
  }

  /**
   * Genkit's test app for this suite: {@code customReflector} answers with the request it was sent,
   * as JSON whose object keys are sorted and whose empty fields are left out (the Go test app's
   * encoding), and reports the characters it read and wrote, which Genkit's model wrapper counts
   * for JS and Go models and Baton's leaves to the model.
   */
  private static Baton testApp() {
    Baton baton = Baton.builder().build();
    baton.defineModel(
        "customReflector",
        ModelInfo.full("customReflector"),
        (ctx, request, stream) -> {
          String echo = Json.write(canonical(Json.toTree(request)));
          int read = request.messages().stream().mapToInt(m -> m.text().length()).sum();
          return ModelResponse.of(Message.model(echo), FinishReason.STOP)
              .withUsage(
                  GenerationUsage.builder()
                      .inputCharacters(read)
                      .outputCharacters(echo.length())
                      .build());
        });
    return baton;
  }

  /** Sorted keys, no nulls, no empty arrays or objects: what Go's encoder writes with omitempty. */
  private static JsonNode canonical(JsonNode node) {
    if (node.isObject()) {
      ObjectNode out = Json.object();
      Map<String, JsonNode> sorted = new TreeMap<>();
      node.properties().forEach(e -> sorted.put(e.getKey(), canonical(e.getValue())));
      sorted.forEach(
          (key, value) -> {
            if (!value.isNull() && !(value.isContainer() && value.isEmpty())) {
              out.set(key, value);
            }
          });
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = Json.nodes().arrayNode();
      node.forEach(element -> out.add(canonical(element)));
      return out;
    }
    return node;
  }

  /** Genkit's harness normalisation, with its excluded keys left out at every depth. */
  private static JsonNode normalize(JsonNode node) {
    if (node.isArray()) {
      ArrayNode out = Json.nodes().arrayNode();
      node.forEach(element -> out.add(normalize(element)));
      return out;
    }
    if (!node.isObject()) {
      return node;
    }
    ObjectNode out = Json.object();
    node.properties()
        .forEach(
            e -> {
              JsonNode value = e.getValue();
              if (EXCLUDED.contains(e.getKey())
                  || (value.isBoolean() && !value.asBoolean())
                  || (value.isString() && value.asString().isEmpty())) {
                return;
              }
              JsonNode normalized = normalize(value);
              if (normalized.isObject() && normalized.isEmpty()) {
                return;
              }
              out.set(e.getKey(), normalized);
            });
    return out;
  }
}
