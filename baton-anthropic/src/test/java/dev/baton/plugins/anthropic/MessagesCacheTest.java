package dev.baton.plugins.anthropic;

import static dev.baton.plugins.anthropic.AnthropicFixtures.baton;
import static dev.baton.plugins.anthropic.AnthropicFixtures.body;
import static dev.baton.plugins.anthropic.AnthropicFixtures.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.WeatherTool;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Where {@code cache_control} breakpoints go on the wire, and how many. */
class MessagesCacheTest {
  private static final JsonNode EPHEMERAL = Json.parse("{\"type\": \"ephemeral\"}");

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();

  private JsonNode sent(ModelRequest request) {
    server.reply(AnthropicFixtures.text("ok"));
    call(baton(server), request);
    return body(server, 0);
  }

  private static ObjectNode cacheControl(String json) {
    return (ObjectNode) Json.parse("{\"cacheControl\": " + json + "}");
  }

  /** Every block that carries a breakpoint, in the order the API reads the prompt. */
  private static List<JsonNode> breakpoints(JsonNode body) {
    List<JsonNode> marked = new ArrayList<>();
    body.path("tools").forEach(block -> addIfMarked(marked, block));
    body.path("system").forEach(block -> addIfMarked(marked, block));
    body.path("messages")
        .forEach(message -> message.path("content").forEach(block -> addIfMarked(marked, block)));
    return marked;
  }

  private static void addIfMarked(List<JsonNode> marked, JsonNode block) {
    if (block.has("cache_control")) {
      marked.add(block);
    }
  }

  @Test
  void putsCacheBreakpointsWhereTheConfigAndTheMetadataAsk() {
    JsonNode body =
        sent(
            ModelRequest.of(
                    List.of(
                        Message.system("A long system prompt."),
                        new Message(
                            Role.USER,
                            List.of(
                                Part.text("A long document.").withMetadata(cacheControl("true")),
                                Part.text("A question?"))),
                        Message.model("An answer.")
                            .withMetadata(
                                cacheControl("{\"type\": \"ephemeral\", \"ttl\": \"5m\"}")),
                        Message.user("Another question?")))
                .withTools(List.of(WeatherTool.definition()))
                .withConfig(
                    Json.parse(
                        "{\"cacheControl\": {\"system\": true, \"tools\": true, \"ttl\": \"1h\"}}")));

    JsonNode oneHour = Json.parse("{\"type\": \"ephemeral\", \"ttl\": \"1h\"}");
    assertThat(body.path("tools").path(0).path("cache_control")).isEqualTo(oneHour);
    assertThat(body.path("system").path(0).path("cache_control")).isEqualTo(oneHour);
    assertThat(body.path("messages"))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "user", "content": [
                   {"type": "text", "text": "A long document.",
                    "cache_control": {"type": "ephemeral"}},
                   {"type": "text", "text": "A question?"}]},
                 {"role": "assistant", "content": [
                   {"type": "text", "text": "An answer.",
                    "cache_control": {"type": "ephemeral", "ttl": "5m"}}]},
                 {"role": "user", "content": [{"type": "text", "text": "Another question?"}]}]
                """));
    assertThat(breakpoints(body)).hasSize(4);
    assertThat(body.has("cacheControl")).isFalse();
  }

  @Test
  void keepsTheConfigsBreakpointsAndTheLatestOfTheMetadatasWhenMoreThanFourAreAsked() {
    List<Message> turns = new ArrayList<>();
    for (int turn = 1; turn <= 4; turn++) {
      turns.add(Message.user("Question " + turn).withMetadata(cacheControl("true")));
      turns.add(Message.model("Answer " + turn));
    }
    turns.add(Message.user("Last question"));

    JsonNode body =
        sent(
            ModelRequest.of(turns)
                .withTools(List.of(WeatherTool.definition()))
                .withConfig(
                    Json.parse("{\"cacheControl\": {\"tools\": true, \"lastMessage\": true}}")));

    assertThat(breakpoints(body))
        .extracting(block -> block.path("name").asString(block.path("text").asString("")))
        .containsExactly("getWeather", "Question 3", "Question 4", "Last question");
    assertThat(breakpoints(body))
        .extracting(block -> block.path("cache_control"))
        .containsOnly(EPHEMERAL);
  }

  @Test
  void refusesAOneHourBreakpointAfterAShorterOne() {
    ModelRequest request =
        ModelRequest.of(
                List.of(
                    Message.system("A long system prompt."),
                    Message.user("A question?")
                        .withMetadata(cacheControl("{\"type\": \"ephemeral\", \"ttl\": \"1h\"}"))))
            .withConfig(Json.parse("{\"cacheControl\": {\"system\": true}}"));

    assertThatThrownBy(() -> call(baton(server), request))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT);
              assertThat(e.getMessage()).contains("1h");
            });
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void putsNoBreakpointOnAThinkingBlock() {
    Message answer =
        new Message(
                Role.MODEL,
                List.of(
                    Part.text("Let me look."),
                    Part.reasoning("Pondering.")
                        .withMetadata(
                            (ObjectNode)
                                Json.parse("{\"signature\": \"sig\", \"cacheControl\": true}"))))
            .withMetadata(cacheControl("true"));

    JsonNode body =
        sent(
            ModelRequest.of(List.of(Message.user("Hi"), answer, Message.user("Go on")))
                .withConfig(
                    Json.parse("{\"thinking\": {\"budgetTokens\": 2048}, \"cacheControl\": {}}")));

    JsonNode assistant = body.path("messages").path(1).path("content");
    assertThat(assistant.path(0).path("cache_control")).isEqualTo(EPHEMERAL);
    assertThat(assistant.path(1).path("type").asString()).isEqualTo("thinking");
    assertThat(assistant.path(1).has("cache_control")).isFalse();
  }
}
