package dev.baton.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.Action;
import dev.baton.core.Json;
import dev.baton.testing.ConformanceSuite;
import dev.baton.testing.ConformanceTools;
import dev.baton.testing.ProgrammableModel;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

/** Runs Genkit's {@code generate.yaml} unchanged against {@code /util/generate}. */
class GenerateConformanceTest {

  @TestFactory
  Stream<DynamicTest> generateSuite() {
    ConformanceSuite suite = ConformanceSuite.load("generate.yaml");
    return suite.tests().stream()
        .map(test -> DynamicTest.dynamicTest(test.path("name").asString(), () -> run(test)));
  }

  private static void run(JsonNode test) {
    Baton baton = Baton.builder().build();
    ConformanceTools.register(baton.registry());
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "programmableModel");
    JsonNode responses = test.path("modelResponses");
    JsonNode streamChunks = test.path("streamChunks");
    for (int i = 0; i < responses.size(); i++) {
      List<ModelResponseChunk> chunks = new ArrayList<>();
      streamChunks.path(i).forEach(c -> chunks.add(Json.convert(c, ModelResponseChunk.class)));
      model.step().chunks(chunks).respond(Json.convert(responses.get(i), ModelResponse.class));
    }

    Action<?, ?, ?> generate = baton.registry().lookup("/util/generate").orElseThrow();
    List<JsonNode> chunks = new ArrayList<>();
    boolean stream = test.path("stream").asBoolean(false);
    JsonNode response =
        generate.runJson(
            baton.context(),
            test.path("input"),
            stream ? chunks::add : dev.baton.core.StreamCallback.discard());

    assertJsonEquals(response, test.path("expectResponse"));
    assertThat(model.calls()).as("model calls").isEqualTo(responses.size());
    if (test.has("expectChunks")) {
      assertJsonEquals(Json.toTree(chunks), test.path("expectChunks"));
    }
  }

  private static void assertJsonEquals(JsonNode actual, JsonNode expected) {
    assertThat(Json.jsonEquals(actual, expected))
        .as("expected %s%nbut got  %s", expected, actual)
        .isTrue();
  }
}
