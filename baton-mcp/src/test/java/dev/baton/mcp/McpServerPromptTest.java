package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class McpServerPromptTest {
  private final ServedMcp served = new ServedMcp();
  private McpSyncClient client;

  @BeforeEach
  void serve() {
    served.baton.definePrompt(
        "greeting",
        InlinePrompt.builder()
            .system("You greet people in {{language}}.")
            .messages(List.of(Message.user("Hi"), Message.model("Hello! Whom shall I greet?")))
            .prompt("Say hello to {{name}}.")
            .build());
    served.baton.definePrompt(
        "broken",
        InlinePrompt.builder()
            .prompt(
                ctx -> {
                  throw BatonException.internal("template store at 10.0.0.9 is down", null);
                })
            .build());
    served.serve(b -> b.prompts("greeting", "broken"));
    client = served.client();
  }

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void promptsListShowsTheServedPrompts() {
    assertThat(client.listPrompts().prompts())
        .extracting(McpSchema.Prompt::name)
        .containsExactlyInAnyOrder("greeting", "broken");
  }

  @Test
  void aPromptGetRendersTheMessagesWithTheArgumentsAsInput() {
    GetPromptResult result =
        client.getPrompt(
            GetPromptRequest.builder("greeting")
                .arguments(Map.of("name", "Ada", "language", "French"))
                .build());

    assertThat(result.messages())
        .extracting(PromptMessage::role, m -> ((TextContent) m.content()).text())
        .containsExactly(
            tuple(McpSchema.Role.USER, "You greet people in French."),
            tuple(McpSchema.Role.USER, "Hi"),
            tuple(McpSchema.Role.ASSISTANT, "Hello! Whom shall I greet?"),
            tuple(McpSchema.Role.USER, "Say hello to Ada."));
  }

  @Test
  void aPromptThatFailsAnswersAnErrorWithoutInternals() {
    assertThatThrownBy(() -> client.getPrompt(GetPromptRequest.builder("broken").build()))
        .isInstanceOf(McpError.class)
        .hasMessageContaining(BatonException.genericMessage(Status.INTERNAL))
        .hasMessageNotContaining("10.0.0.9");
  }
}
