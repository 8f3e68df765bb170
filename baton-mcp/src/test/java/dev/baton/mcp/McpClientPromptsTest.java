package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.MediaPart;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.Tool;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.server.NodeFixture;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An MCP server's prompts, from the TypeScript SDK's server in {@code prompts-server.js}. */
class McpClientPromptsTest {
  static final String PIXEL =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

  private McpClient client;
  private Baton baton;
  private ProgrammableModel model;

  static McpClient promptsServer() {
    NodeFixture.require();
    return Mcp.client("p")
        .stdio("node", NodeFixture.DIR.resolve("prompts-server.js").toString())
        .build();
  }

  @BeforeEach
  void start() {
    client = promptsServer();
    baton = Baton.builder().experimental().plugin(client).build();
    model = ProgrammableModel.define(baton.registry(), "pm");
  }

  @AfterEach
  void stop() {
    baton.close();
  }

  @Test
  void theModelGetsTheMessagesTheServerRendered() {
    ExecutablePrompt review = client.prompt("review");
    model.respondText("Looks fine.");

    var response =
        baton.generate(
            review
                .render(baton.context(), Map.of("code", "x = 1", "language", "python"), List.of())
                .model("pm")
                .build());

    assertThat(response.text()).isEqualTo("Looks fine.");
    List<Message> sent = model.lastRequest().messages();
    assertThat(sent)
        .extracting(Message::role)
        .containsExactly(Role.USER, Role.MODEL, Role.USER, Role.USER);
    assertThat(sent.get(0).text()).isEqualTo("Review this python code:\nx = 1");
    assertThat(sent.get(1).text()).isEqualTo("Send me the style guide too.");
    Part image = sent.get(2).content().get(0);
    assertThat(image).isInstanceOf(MediaPart.class);
    assertThat(((MediaPart) image).media().url()).isEqualTo("data:image/png;base64," + PIXEL);
    assertThat(((MediaPart) image).media().contentType()).isEqualTo("image/png");
    Part embedded = sent.get(3).content().get(0);
    assertThat(embedded).isInstanceOf(TextPart.class);
    assertThat(((TextPart) embedded).text()).isEqualTo("Use two spaces.");
    assertThat(embedded.metadata().path("resource").path("uri").asString())
        .isEqualTo("notes://style");
  }

  @Test
  void anAgentOverAnMcpPromptHasItsMessagesBeforeTheConversation() {
    baton.registry().register(client.prompt("review", InlinePrompt.builder().model("pm").build()));
    Agent reviewer =
        baton.definePromptAgent(
            "reviewer", "p/review", Map.of("code", "y()"), AgentOptions.DEFAULTS);
    model.respondText("Done.");

    assertThat(reviewer.runText("Be brief.").message().text()).isEqualTo("Done.");

    List<Message> sent = model.lastRequest().messages();
    assertThat(sent.get(0).text()).isEqualTo("Review this unknown code:\ny()");
    assertThat(sent.get(sent.size() - 1).text()).isEqualTo("Be brief.");
  }

  @Test
  void theInputSchemaComesFromTheArguments() {
    ExecutablePrompt review = client.prompt("review");

    assertThat(review.name()).isEqualTo("p/review");
    assertThat(review.descriptor().description()).isEqualTo("Reviews a piece of code");
    assertThat(review.descriptor().inputSchema())
        .isEqualTo(
            Json.parse(
                """
                {"type": "object",
                 "properties": {
                   "code": {"type": "string", "description": "The code to review"},
                   "language": {"type": "string", "description": "The language it is written in"}},
                 "required": ["code"]}
                """));
  }

  @Test
  void aMissingRequiredArgumentIsInvalidArgumentNamingIt() {
    ExecutablePrompt review = client.prompt("review");

    assertStatus(
        () -> review.render(baton.context(), Map.of("language", "go"), List.of()).build(),
        Status.INVALID_ARGUMENT,
        "\"code\"");
    // A JSON caller is held to the schema before anything reaches the server.
    assertStatus(
        () -> review.runJson(baton.context(), Json.object(), null, StreamCallback.discard()),
        Status.INVALID_ARGUMENT,
        "code");
  }

  @Test
  void anArgumentThatIsNotAStringGoesAsItsJsonText() {
    ExecutablePrompt review = client.prompt("review");

    List<Message> messages =
        review
            .render(baton.context(), Map.of("code", Map.of("lines", 3), "language", 7), List.of())
            .build()
            .messages();

    assertThat(messages.get(0).text()).isEqualTo("Review this 7 code:\n{\"lines\":3}");
  }

  @Test
  void anUnknownPromptIsNotFoundNamingIt() {
    assertStatus(() -> client.prompt("nope"), Status.NOT_FOUND, "\"nope\"");
  }

  @Test
  void promptsResolveByNameAsPromptActions() {
    assertThat(client.prompts())
        .extracting(ExecutablePrompt::name)
        .containsExactly("p/review", "p/unlock");

    ExecutablePrompt resolved = ExecutablePrompt.lookup(baton.registry(), "p/review");
    assertThat(resolved.name()).isEqualTo("p/review");
    assertThat(baton.registry().lookup("/executable-prompt/p/missing")).isEmpty();
  }

  @Test
  void aChangedPromptListIsListedAgain() {
    assertThat(client.prompts()).extracting(ExecutablePrompt::name).doesNotContain("p/secret");

    client.prompt("unlock").render(baton.context(), null, List.of()).build();

    await()
        .untilAsserted(
            () ->
                assertThat(client.prompts())
                    .extracting(ExecutablePrompt::name)
                    .contains("p/secret"));
    assertThat(client.prompt("secret").render(baton.context(), null, List.of()).build().messages())
        .extracting(Message::text)
        .containsExactly("the secret");
  }

  @Test
  void aServerWithoutPromptsOrResourcesHasNoneOfThem() {
    try (McpClient tools = TestServers.stdio("t").build()) {
      assertThat(tools.prompts()).isEmpty();
      assertStatus(() -> tools.prompt("review"), Status.NOT_FOUND, "\"review\"");
      assertThat(tools.tools())
          .isNotEmpty()
          .extracting(Tool::name)
          .doesNotContain("t/list_resources", "t/read_resource");
      assertStatus(() -> tools.resource("notes://readme"), Status.NOT_FOUND, "no resources");
    }
  }

  static void assertStatus(ThrowingCallable call, Status status, String messagePart) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(status);
              assertThat(e.getMessage()).contains(messagePart);
            });
  }
}
