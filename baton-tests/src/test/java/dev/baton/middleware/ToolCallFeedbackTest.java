package dev.baton.middleware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * ToolCallFeedback answers a model's calls to unknown tools, and calls whose input fails the tool's
 * schema, with what is wrong, a bounded number of times per generate call; without it such a call
 * fails the generate call as Genkit's does.
 */
class ToolCallFeedbackTest {
  private static final JsonNode FORECAST_SCHEMA =
      Json.parse(
          """
          {"type": "object",
           "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
           "required": ["city"],
           "additionalProperties": false}
          """);

  private final Baton baton = Baton.builder().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  private final AtomicInteger forecasts = new AtomicInteger();
  private final Tool<JsonNode, JsonNode> forecast =
      Tool.createJson(
          "forecast",
          "The weather in a city",
          FORECAST_SCHEMA,
          null,
          (ctx, in) -> {
            forecasts.incrementAndGet();
            return Json.object().put("city", in.path("city").asString()).put("celsius", 3);
          });
  private final Tool<JsonNode, JsonNode> clock =
      Tool.createJson(
          "clock", "The time", null, null, (ctx, in) -> Json.nodes().stringNode("9:00"));

  private static ModelResponse calls(ToolRequestPart... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  private static ToolRequestPart call(String name, String ref, String input) {
    return Part.toolRequest(name, ref, Json.parse(input));
  }

  private GenerateResponse generate(Middleware... use) {
    return baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .prompt("Weather in Oslo?")
            .tools(forecast, clock)
            .use(use)
            .build());
  }

  /** The output the model got for the call with this ref. */
  private static JsonNode answerTo(GenerateResponse response, String ref) {
    return response.history().stream()
        .flatMap(m -> m.toolResponses().stream())
        .map(p -> p.toolResponse())
        .filter(r -> ref.equals(r.ref()))
        .map(ToolResponse::output)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aCallToAnUnknownToolIsAnsweredWithTheOfferedToolsAndTheModelCorrectsItself() {
    model.respond(calls(call("weather", "w1", "{\"city\":\"Oslo\"}")));
    model.respond(calls(call("forecast", "f1", "{\"city\":\"Oslo\"}")));
    model.respondText("3 degrees in Oslo");

    GenerateResponse response = generate(new ToolCallFeedback());

    assertThat(response.text()).isEqualTo("3 degrees in Oslo");
    JsonNode answer = answerTo(response, "w1");
    assertThat(answer.path("error").asString()).contains("no tool named \"weather\"");
    assertThat(answer.path("offeredTools").values())
        .extracting(JsonNode::asString)
        .containsExactly("forecast", "clock");
    assertThat(answerTo(response, "f1").path("celsius").asInt()).isEqualTo(3);
    // The model read the answer: its second request carries the bad call and the feedback.
    assertThat(model.requests().get(1).messages())
        .extracting(Message::role)
        .containsExactly(Role.USER, Role.MODEL, Role.TOOL);
    assertThat(model.requests().get(1).messages().get(2).toolResponses().get(0).toolResponse())
        .satisfies(r -> assertThat(r.name()).isEqualTo("weather"))
        .satisfies(r -> assertThat(r.ref()).isEqualTo("w1"));
  }

  @Test
  void inputFailingTheSchemaIsAnsweredWithItsErrorsByPathAndTheToolDoesNotRun() {
    // A good call in the same response runs as usual.
    model.respond(
        calls(call("forecast", "f1", "{\"town\":\"Oslo\",\"days\":0}"), call("clock", "c1", "{}")));
    model.respond(calls(call("forecast", "f2", "{\"city\":\"Oslo\",\"days\":2}")));
    model.respondText("done");

    GenerateResponse response = generate(new ToolCallFeedback());

    assertThat(response.text()).isEqualTo("done");
    JsonNode answer = answerTo(response, "f1");
    assertThat(answer.path("error").asString()).contains("input schema of tool \"forecast\"");
    assertThat(answer.path("validationErrors").values())
        .extracting(e -> e.path("path").asString() + " " + e.path("message").asString())
        .anySatisfy(e -> assertThat(e).startsWith("$.days ").contains("minimum"))
        .anySatisfy(e -> assertThat(e).startsWith("$ ").contains("city").contains("required"))
        .anySatisfy(e -> assertThat(e).startsWith("$ ").contains("town"));
    assertThat(answerTo(response, "c1").asString()).isEqualTo("9:00");
    assertThat(forecasts).as("the forecast ran only for the corrected call").hasValue(1);
  }

  @Test
  void afterItsRetriesABadCallFailsTheCallWithGenkitsError() {
    for (int i = 0; i < 3; i++) {
      model.respond(calls(call("weather", "w" + i, "{}")));
    }
    assertThatThrownBy(() -> generate(new ToolCallFeedback(2)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND))
        .hasMessage("the model called tool \"weather\", which this generate call does not offer");
    assertThat(model.calls()).isEqualTo(3);

    // A new generate call has its retries afresh; bad input runs out as bad names do.
    model.reset();
    for (int i = 0; i < 3; i++) {
      model.respond(calls(call("forecast", "f" + i, "{\"days\":\"many\"}")));
    }
    assertThatThrownBy(() -> generate(new ToolCallFeedback(2)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageStartingWith("input of /tool/forecast does not match its schema: ");
    assertThat(model.calls()).isEqualTo(3);
    assertThat(forecasts).hasValue(0);
  }

  @Test
  void withoutTheMiddlewareABadCallFailsTheCallAsGenkitsDoes() {
    model.respond(calls(call("weather", "w1", "{}")));
    assertThatThrownBy(this::generate)
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND))
        .hasMessageContaining("\"weather\"");

    model.respond(calls(call("forecast", "f1", "{\"city\":5}")));
    assertThatThrownBy(this::generate)
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessage(
            "input of /tool/forecast does not match its schema:"
                + " $.city: integer found, string expected (type)");
    assertThat(forecasts).hasValue(0);
    assertThat(model.calls()).isEqualTo(2);
  }

  @Test
  void aBadCallIsAnsweredBeforeToolApprovalWouldHoldIt() {
    model.respond(calls(call("forecast", "f1", "{}")));
    model.respondText("sorry");

    GenerateResponse response = generate(ToolApproval.allowing(), new ToolCallFeedback());

    assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
    assertThat(answerTo(response, "f1").path("validationErrors").isArray()).isTrue();
  }

  @Test
  void itIsUsableByNameWithJsonConfig() {
    model.respond(calls(call("weather", "w1", "{}")), calls(call("weather", "w2", "{}")));
    JsonNode request =
        Json.parse(
            """
            {"model": "pm", "tools": ["clock"],
             "messages": [{"role": "user", "content": [{"text": "hi"}]}],
             "use": [{"name": "genkit-middleware-exp/toolCallFeedback",
                      "config": {"maxRetries": 1}}]}
            """);
    baton.defineJsonTool("clock", "The time", null, null, (ctx, in) -> Json.nodes().nullNode());
    var generate = baton.registry().lookup("/util/generate").orElseThrow();

    assertThatThrownBy(() -> generate.runJson(baton.context(), request, StreamCallback.discard()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
    assertThat(model.calls()).isEqualTo(2);
    assertThat(model.requests().get(1).messages().get(2).toolResponses().get(0).toolResponse())
        .satisfies(
            r ->
                assertThat(r.output().path("offeredTools").values())
                    .extracting(JsonNode::asString)
                    .containsExactly("clock"));
  }
}
