package dev.baton.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.ai.UsageListeners;
import dev.baton.testing.ProgrammableModel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class GenerateTest {
  record City(String city) {}

  record Weather(String city, int celsius) {}

  private final Baton baton = Baton.builder().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");

  static ModelResponse toolCalls(ToolRequestPart... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  static ToolRequestPart call(String name, String ref, Object input) {
    return Part.toolRequest(name, ref, Json.toTree(input));
  }

  @Test
  void aPlainCallEchoesItsRequestAndHistory() {
    model.respondText("hello back");
    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder().model("pm").system("be brief").prompt("hi").build());

    assertThat(response.text()).isEqualTo("hello back");
    assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
    assertThat(response.request().messages())
        .extracting(Message::role)
        .containsExactly(Role.SYSTEM, Role.USER);
    assertThat(response.history())
        .extracting(Message::text)
        .containsExactly("be brief", "hi", "hello back");
  }

  @Test
  void theCallsOfOneModelTurnRunInParallelAndAnswerInRequestOrder() {
    // Both calls must be inside their tools at the same time, and the first finishes last.
    CountDownLatch bothRunning = new CountDownLatch(2);
    CountDownLatch secondDone = new CountDownLatch(1);
    Tool<City, Weather> weather =
        baton.defineTool(
            "weather",
            "Weather for a city",
            City.class,
            Weather.class,
            (ctx, in) -> {
              bothRunning.countDown();
              await(bothRunning);
              if (in.city().equals("Paris")) {
                await(secondDone);
                return new Weather("Paris", 18);
              }
              secondDone.countDown();
              return new Weather(in.city(), 25);
            });
    model.respond(
        toolCalls(call("weather", "a", new City("Paris")), call("weather", "b", new City("Rome"))));
    model.respondText("done");

    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder().model("pm").prompt("weather?").tools(weather).build());

    assertThat(response.text()).isEqualTo("done");
    Message toolMessage = model.lastRequest().messages().get(2);
    assertThat(toolMessage.role()).isEqualTo(Role.TOOL);
    assertThat(toolMessage.toolResponses())
        .extracting(
            p -> p.toolResponse().ref() + "=" + p.toolResponse().output().path("celsius").asInt())
        .containsExactly("a=18", "b=25");
  }

  @Test
  void exceedingMaxTurnsIsAClearError() {
    Tool<JsonNode, JsonNode> loop =
        baton.defineJsonTool(
            "loop", "loops", null, null, (ctx, in) -> Json.nodes().stringNode("again"));
    model.fallback(
        request -> toolCalls(call("loop", "r" + request.messages().size(), Json.object())));

    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .prompt("go")
                        .tools(loop)
                        .maxTurns(2)
                        .build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.ABORTED))
        .hasMessage("exceeded maximum tool call iterations (2)");
    assertThat(model.calls()).isEqualTo(3);
  }

  @Test
  void theDefaultTurnLimitIsFive() {
    Tool<JsonNode, JsonNode> loop =
        baton.defineJsonTool(
            "loop", "loops", null, null, (ctx, in) -> Json.nodes().stringNode("again"));
    model.fallback(
        request -> toolCalls(call("loop", "r" + request.messages().size(), Json.object())));
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder().model("pm").prompt("go").tools(loop).build()))
        .hasMessage("exceeded maximum tool call iterations (5)");
    assertThat(model.calls()).isEqualTo(6);
  }

  @Test
  void aNegativeTurnLimitIsRejected() {
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder().model("pm").prompt("x").maxTurns(-1).build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
  }

  @Test
  void chunksCarryTheirMessageIndexAcrossTurns() {
    Tool<JsonNode, JsonNode> echo =
        baton.defineJsonTool(
            "echo", "echoes", null, null, (ctx, in) -> Json.nodes().stringNode("echoed"));
    model
        .step()
        .chunks(ModelResponseChunk.of(null, List.of(Part.text("calling"))))
        .respond(toolCalls(call("echo", "e1", Json.object())));
    model
        .step()
        .chunks(ModelResponseChunk.text("fin"), ModelResponseChunk.text("al"))
        .respond(ModelResponse.of(Message.model("final"), FinishReason.STOP));
    List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .prompt("go")
            .tools(echo)
            .onChunk(chunks::add)
            .build());

    assertThat(chunks)
        .extracting(c -> c.index() + ":" + c.role().wireName() + ":" + describe(c))
        .containsExactly("0:model:calling", "1:tool:echoed", "2:model:fin", "2:model:al");
  }

  private static String describe(ModelResponseChunk chunk) {
    if (!chunk.text().isEmpty()) {
      return chunk.text();
    }
    return chunk.content().stream()
        .map(p -> ((ToolResponsePart) p).toolResponse().output().asString())
        .reduce("", String::concat);
  }

  @Test
  void structuredOutputIsConstrainedWhereTheModelSupportsIt() {
    model.respondText("{\"city\":\"Paris\",\"celsius\":18}");
    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder()
                .model("pm")
                .prompt("weather")
                .output(OutputOptions.of(Weather.class))
                .build());

    assertThat(response.output(Weather.class)).isEqualTo(new Weather("Paris", 18));
    OutputConfig sent = model.lastRequest().output();
    assertThat(sent.constrained()).isTrue();
    assertThat(sent.schema().path("properties").has("celsius")).isTrue();
    assertThat(model.lastRequest().messages().get(0).content()).hasSize(1);
  }

  @Test
  void aModelWithoutConstrainedOutputGetsInstructionsAndItsAnswerIsStillValidated() {
    ProgrammableModel plain =
        ProgrammableModel.define(
            baton.registry(), "plain", new ModelInfo("plain", ModelInfo.Supports.TEXT_ONLY, null));
    plain.respondText("```json\n{\"city\":\"Rome\",\"celsius\":25}\n```");
    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder()
                .model("plain")
                .prompt("weather")
                .output(OutputOptions.of(Weather.class))
                .build());
    assertThat(response.output(Weather.class)).isEqualTo(new Weather("Rome", 25));
    List<Part> userParts = plain.lastRequest().messages().get(0).content();
    assertThat(userParts).hasSize(2);
    assertThat(((TextPart) userParts.get(1)).text()).contains("JSON").contains("celsius");
    assertThat(userParts.get(1).metadata().path("purpose").asString()).isEqualTo("output");
    assertThat(plain.lastRequest().output().constrained()).isNull();
  }

  @Test
  void aModelThatConstrainsOnlyWithoutToolsGetsInstructionsWhenToolsArePresent() {
    ProgrammableModel noTools =
        ProgrammableModel.define(
            baton.registry(),
            "noTools",
            new ModelInfo(
                "noTools",
                new ModelInfo.Supports(
                    true, true, true, false, List.of("text", "json"), "no-tools", true),
                null));
    Tool<JsonNode, JsonNode> echo =
        baton.defineJsonTool(
            "echo", "echoes", null, null, (ctx, in) -> Json.nodes().stringNode("e"));
    noTools.respondText("{\"city\":\"Oslo\",\"celsius\":3}");
    noTools.respondText("{\"city\":\"Oslo\",\"celsius\":3}");
    GenerateOptions.Builder ask =
        GenerateOptions.builder()
            .model("noTools")
            .prompt("w")
            .output(OutputOptions.of(Weather.class));

    baton.generate(ask.build());
    assertThat(noTools.lastRequest().output().constrained()).isTrue();
    baton.generate(ask.tools(echo).build());
    assertThat(noTools.lastRequest().output().constrained()).isNull();
    assertThat(noTools.lastRequest().messages().get(0).content()).hasSize(2);
  }

  @Test
  void invalidStructuredOutputIsAClearError() {
    model.respondText("It is sunny in Paris.");
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .prompt("w")
                        .output(OutputOptions.of(Weather.class))
                        .build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("not valid JSON");

    model.respondText("{\"city\":\"Paris\"}");
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .prompt("w")
                        .output(OutputOptions.of(Weather.class))
                        .build()))
        .hasMessageContaining("celsius")
        .hasMessageContaining("(required)");
  }

  @Test
  void aToolTheCallDoesNotOfferIsNotFound() {
    model.respond(toolCalls(call("ghost", "g", Json.object())));
    assertThatThrownBy(
            () -> baton.generate(GenerateOptions.builder().model("pm").prompt("x").build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND))
        .hasMessageContaining("ghost");
  }

  @Test
  void aToolRequestWithoutRefGetsOne() {
    Tool<JsonNode, JsonNode> echo =
        baton.defineJsonTool(
            "echo", "echoes", null, null, (ctx, in) -> Json.nodes().stringNode("e"));
    model.respond(toolCalls(Part.toolRequest("echo", null, Json.object())));
    model.respondText("ok");
    GenerateResponse response =
        baton.generate(GenerateOptions.builder().model("pm").prompt("x").tools(echo).build());
    String ref = response.history().get(1).toolRequests().get(0).toolRequest().ref();
    assertThat(ref).isNotBlank();
    assertThat(response.history().get(2).toolResponses().get(0).toolResponse().ref())
        .isEqualTo(ref);
  }

  @Test
  void returnToolRequestsStopsBeforeTheToolsEvenWithStructuredOutput() {
    Tool<JsonNode, JsonNode> echo =
        baton.defineJsonTool(
            "echo", "echoes", null, null, (ctx, in) -> Json.nodes().stringNode("e"));
    model.respond(toolCalls(call("echo", "e1", Json.object())));
    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder()
                .model("pm")
                .prompt("x")
                .tools(echo)
                .returnToolRequests(true)
                .output(OutputOptions.of(Weather.class))
                .build());
    assertThat(response.message().toolRequests()).hasSize(1);
    assertThat(response.output()).isNull();
  }

  @Test
  void usageAddsUpAcrossTheLoop() {
    Tool<JsonNode, JsonNode> echo =
        baton.defineJsonTool(
            "echo", "echoes", null, null, (ctx, in) -> Json.nodes().stringNode("e"));
    model.respond(
        toolCalls(call("echo", "e1", Json.object()))
            .withUsage(GenerationUsage.builder().inputTokens(10).outputTokens(2).build()));
    model.respond(
        ModelResponse.of(Message.model("ok"), FinishReason.STOP)
            .withUsage(GenerationUsage.builder().inputTokens(15).outputTokens(3).build()));
    List<GenerationUsage> reported = new ArrayList<>();
    List<String> models = new ArrayList<>();
    GenerateResponse response =
        baton.generate(
            UsageListeners.hearAll(
                baton.context(),
                (model, usage) -> {
                  models.add(model);
                  reported.add(usage);
                }),
            GenerateOptions.builder().model("pm").prompt("x").tools(echo).build());
    assertThat(response.totalUsage().inputTokens()).isEqualTo(25);
    assertThat(response.totalUsage().outputTokens()).isEqualTo(5);
    assertThat(response.usage().inputTokens()).isEqualTo(15);
    assertThat(reported).hasSize(2);
    assertThat(models).containsExactly("pm", "pm");
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).as("latch opened").isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
