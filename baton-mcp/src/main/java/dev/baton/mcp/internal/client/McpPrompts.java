package dev.baton.mcp.internal.client;

import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.PromptContext;
import dev.baton.ai.Role;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An MCP server's prompts as Baton prompts named {@code <client>/<prompt>}. Rendering one sends
 * {@code prompts/get} with the input as the arguments ({@link PromptArguments}) and turns the
 * messages the server answers into Baton messages, each block of content a part ({@link
 * ToolResults}); a conversation's history follows them. The list of prompts is kept until the
 * server says it changed ({@code notifications/prompts/list_changed}).
 *
 * <p>Thread-safe.
 */
public final class McpPrompts {
  /** The options of a prompt given without any: no model, no tools. */
  public static final InlinePrompt NO_OPTIONS = InlinePrompt.builder().build();

  private final ServerConnection connection;
  private final Listing<List<McpSchema.Prompt>> listing;

  public McpPrompts(ServerConnection connection) {
    this.connection = connection;
    // The SDK's listPrompts() follows every page, and refuses to ask a server without prompts.
    this.listing =
        new Listing<>(
            connection::promptListVersion,
            cancellation ->
                connection.capabilities().prompts() == null
                    ? List.of()
                    : connection.request(
                        cancellation,
                        client ->
                            client.listPrompts().map(result -> List.copyOf(result.prompts()))));
  }

  /** The server's prompts, each as a Baton prompt without a model. */
  public List<ExecutablePrompt> list() {
    return listing.get(Cancellation.never()).stream()
        .map(prompt -> executable(prompt, NO_OPTIONS))
        .toList();
  }

  /**
   * The server's prompt {@code name} rendered into {@code options}, whose messages it replaces.
   *
   * @throws BatonException {@code NOT_FOUND} when the server has no such prompt
   */
  public ExecutablePrompt get(String name, InlinePrompt options) {
    return executable(find(name, Cancellation.never()), options);
  }

  /** The server's prompt {@code name} for a registry lookup, or null when it has none. */
  public @Nullable ExecutablePrompt resolve(String name) {
    McpSchema.Prompt prompt = current(name, Cancellation.never());
    return prompt == null ? null : executable(prompt, NO_OPTIONS);
  }

  private ExecutablePrompt executable(McpSchema.Prompt prompt, InlinePrompt options) {
    String name = connection.name() + "/" + prompt.name();
    InlinePrompt rendered =
        options.toBuilder().messages(context -> render(prompt.name(), context)).build();
    return ExecutablePrompt.create(
        name, prompt.description(), PromptArguments.schema(prompt), rendered);
  }

  private List<Message> render(String mcpName, PromptContext context) {
    Cancellation cancellation = context.context().cancellation();
    // The current definition, not the one the prompt was made from: the server may have changed
    // its arguments or dropped the prompt since.
    McpSchema.Prompt prompt = find(mcpName, cancellation);
    Map<String, Object> arguments =
        PromptArguments.of(connection.name() + "/" + mcpName, prompt, context.input());
    McpSchema.GetPromptResult result =
        connection.request(
            cancellation,
            client ->
                client.getPrompt(
                    McpSchema.GetPromptRequest.builder(mcpName).arguments(arguments).build()));
    List<Message> messages = new ArrayList<>();
    for (McpSchema.PromptMessage message : result.messages()) {
      messages.add(
          new Message(role(message.role()), List.of(ToolResults.toPart(message.content()))));
    }
    messages.addAll(context.history());
    return messages;
  }

  private McpSchema.Prompt find(String mcpName, Cancellation cancellation) {
    McpSchema.Prompt prompt = current(mcpName, cancellation);
    if (prompt == null) {
      throw BatonException.notFound(
          "MCP server \"%s\" has no prompt \"%s\"", connection.name(), mcpName);
    }
    return prompt;
  }

  private McpSchema.@Nullable Prompt current(String mcpName, Cancellation cancellation) {
    for (McpSchema.Prompt prompt : listing.get(cancellation)) {
      if (prompt.name().equals(mcpName)) {
        return prompt;
      }
    }
    return null;
  }

  private static Role role(McpSchema.Role role) {
    return role == McpSchema.Role.ASSISTANT ? Role.MODEL : Role.USER;
  }
}
