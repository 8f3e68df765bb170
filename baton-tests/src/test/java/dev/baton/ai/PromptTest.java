package dev.baton.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.ai.Generate;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class PromptTest {
  private final Baton baton = Baton.builder().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  private final List<Message> history =
      List.of(Message.user("earlier question"), Message.model("earlier answer"));

  private List<String> render(InlinePrompt prompt) {
    GenerateOptions options =
        prompt
            .render(new PromptContext(baton.context(), Json.object().put("name", "Ada"), history))
            .build();
    return Generate.initialMessages(options).stream()
        .map(m -> m.role().wireName() + ":" + m.text())
        .toList();
  }

  @Test
  void withoutMessagesTheHistoryGoesBetweenSystemAndPrompt() {
    assertThat(
            render(InlinePrompt.builder().system("You help {{name}}.").prompt("Now: hi").build()))
        .containsExactly(
            "system:You help Ada.",
            "user:earlier question",
            "model:earlier answer",
            "user:Now: hi");
  }

  @Test
  void eachRenderHasTheSystemTextOfItsOwnInput() {
    InlinePrompt prompt = InlinePrompt.builder().system("You help {{name}}.").build();
    for (String name : List.of("Ada", "Ada", "Grace", "Ada")) {
      GenerateOptions options =
          prompt
              .render(new PromptContext(baton.context(), Json.object().put("name", name), history))
              .build();
      assertThat(options.messages().get(0).text()).isEqualTo("You help " + name + ".");
    }
  }

  @Test
  void aConfigTreeChangedAfterBuildDoesNotChangeThePrompt() {
    ObjectNode config = Json.object().put("temperature", 0.2);
    config.putObject("safety").put("level", "high");
    InlinePrompt prompt = InlinePrompt.builder().config(config).build();

    config.put("temperature", 1.5);
    ((ObjectNode) config.get("safety")).put("level", "none");

    GenerateOptions options =
        prompt.render(new PromptContext(baton.context(), Json.object(), history)).build();
    assertThat(Json.write(options.config()))
        .isEqualTo("{\"temperature\":0.2,\"safety\":{\"level\":\"high\"}}");
  }

  @Test
  void aTemplatePlacesTheHistoryAtItsMarker() {
    InlinePrompt prompt =
        InlinePrompt.builder()
            .messagesTemplate(
                List.of(
                    Message.user("intro for {{name}}"),
                    InlinePrompt.HISTORY,
                    Message.user("outro")))
            .build();
    assertThat(render(prompt))
        .containsExactly(
            "user:intro for Ada", "user:earlier question", "model:earlier answer", "user:outro");
  }

  @Test
  void aTemplateWithoutMarkerPlacesTheHistoryBeforeItsLastUserMessage() {
    InlinePrompt prompt =
        InlinePrompt.builder()
            .messagesTemplate(List.of(Message.model("preamble"), Message.user("question")))
            .build();
    assertThat(render(prompt))
        .containsExactly(
            "model:preamble", "user:earlier question", "model:earlier answer", "user:question");
  }

  @Test
  void aMessagesFunctionDecidesWhatToKeep() {
    InlinePrompt prompt =
        InlinePrompt.builder()
            .messages(ctx -> ctx.history().subList(ctx.history().size() - 1, ctx.history().size()))
            .build();
    assertThat(render(prompt)).containsExactly("model:earlier answer");
  }

  @Test
  void staticMessagesTakeOverTheConversation() {
    assertThat(render(InlinePrompt.builder().messages(List.of(Message.user("fixed"))).build()))
        .containsExactly("user:fixed");
  }

  @Test
  void anExecutablePromptIsRegisteredAndGenerates() {
    ExecutablePrompt prompt =
        baton.definePrompt(
            "greeter",
            InlinePrompt.builder()
                .model("pm")
                .system("Greet {{name}}.")
                .prompt("hello")
                .maxTurns(3)
                .build());
    assertThat(baton.registry().lookup("/executable-prompt/greeter")).containsSame(prompt);
    model.respondText("Hi Ada!");
    assertThat(prompt.generate(baton.context(), Json.object().put("name", "Ada")).text())
        .isEqualTo("Hi Ada!");
    assertThat(model.lastRequest().messages().get(0).text()).isEqualTo("Greet Ada.");

    var rendered =
        prompt.runJson(
            baton.context(),
            Json.object().put("name", "Bo"),
            dev.baton.core.StreamCallback.discard());
    assertThat(rendered.path("model").asString()).isEqualTo("pm");
    assertThat(rendered.path("messages").path(0).path("content").path(0).path("text").asString())
        .isEqualTo("Greet Bo.");
    assertThat(rendered.path("maxTurns").asInt()).isEqualTo(3);
  }

  @Test
  void aPromptWithAnInputSchemaShowsItAndValidatesJsonInput() {
    ObjectNode schema = Json.object().put("type", "object");
    schema.putObject("properties").putObject("name").put("type", "string");
    schema.putArray("required").add("name");
    ExecutablePrompt prompt =
        ExecutablePrompt.create(
            "greeter", "Greets", schema, InlinePrompt.builder().prompt("hi {{name}}").build());

    assertThat(prompt.descriptor().inputSchema()).isEqualTo(schema);
    assertThat(prompt.descriptor().description()).isEqualTo("Greets");
    assertThatThrownBy(
            () ->
                prompt.runJson(
                    baton.context(),
                    Json.object().put("name", 7),
                    null,
                    dev.baton.core.StreamCallback.discard()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    JsonNode rendered =
        prompt.runJson(
            baton.context(),
            Json.object().put("name", "Ada"),
            null,
            dev.baton.core.StreamCallback.discard());
    assertThat(rendered.path("messages").path(0).path("content").path(0).path("text").asString())
        .isEqualTo("hi Ada");
  }
}
