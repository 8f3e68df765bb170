package dev.baton.ai;

import static dev.baton.ai.GenerateTest.call;
import static dev.baton.ai.GenerateTest.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A multipart tool's output and content both reach the model through the tool loop. */
class MultipartToolTest {
  private final Baton baton = Baton.builder().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  private final Tool<JsonNode, ToolResult.Output> picture =
      Tool.createMultipart(
          "picture",
          "draws",
          Json.parse("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}"),
          null,
          (ctx, in) ->
              new ToolResult.Output(
                  Json.object().put("drawn", in.path("n").asInt()),
                  List.of(
                      Part.text("a cat"), Part.media("data:image/png;base64,AA==", "image/png"))));

  @Test
  void theToolResponseCarriesTheOutputAndTheContent() {
    model.respond(toolCalls(call("picture", "p1", Map.of("n", 2))));
    model.respondText("done");

    baton.generate(GenerateOptions.builder().model("pm").prompt("go").tools(picture).build());

    ToolResponse response = toolResponse(model.requests().get(1));
    assertThat(response.ref()).isEqualTo("p1");
    assertThat(response.output()).isEqualTo(Json.parse("{\"drawn\":2}"));
    assertThat(response.content())
        .containsExactly(Part.text("a cat"), Part.media("data:image/png;base64,AA==", "image/png"));
  }

  @Test
  void itIsMarkedMultipartAndItsInputIsValidated() {
    assertThat(picture.isMultipart()).isTrue();
    assertThat(picture.descriptor().metadata().path("tool").path("multipart").asBoolean()).isTrue();
    assertThat(picture.type()).isEqualTo(ActionType.TOOL);
    assertThat(Tool.createJson("plain", "", null, null, (c, in) -> in).isMultipart()).isFalse();

    model.respond(toolCalls(call("picture", "p1", Map.of("n", "two"))));
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder().model("pm").prompt("go").tools(picture).build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
  }

  private static ToolResponse toolResponse(ModelRequest request) {
    Message last = request.messages().get(request.messages().size() - 1);
    assertThat(last.role()).isEqualTo(Role.TOOL);
    return ((ToolResponsePart) last.content().get(0)).toolResponse();
  }
}
