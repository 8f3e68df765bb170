package dev.baton.ai;

import dev.baton.core.Json;
import dev.baton.internal.core.Defaulted;
import dev.baton.internal.core.SharedList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a model is asked: the conversation, provider config, the tools it may call and the output it
 * should produce. The generate loop always sends {@code tools} and {@code output} (possibly empty),
 * as Genkit does.
 */
public record ModelRequest(
    List<Message> messages,
    @Nullable JsonNode config,
    List<ToolDefinition> tools,
    @Nullable ToolChoice toolChoice,
    @Defaulted OutputConfig output) {

  public ModelRequest {
    messages = SharedList.copyOf(messages);
    config = config == null ? null : Json.copy(config);
    tools = tools == null ? List.of() : List.copyOf(tools);
    output = output == null ? OutputConfig.NONE : output;
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode config() {
    return config == null ? null : Json.copy(config);
  }

  /** A request with only messages. */
  public static ModelRequest of(List<Message> messages) {
    return new ModelRequest(messages, null, List.of(), null, OutputConfig.NONE);
  }

  public ModelRequest withMessages(List<Message> messages) {
    return new ModelRequest(messages, config, tools, toolChoice, output);
  }

  public ModelRequest withConfig(@Nullable JsonNode config) {
    return new ModelRequest(messages, config, tools, toolChoice, output);
  }

  public ModelRequest withTools(List<ToolDefinition> tools) {
    return new ModelRequest(messages, config, tools, toolChoice, output);
  }

  public ModelRequest withToolChoice(@Nullable ToolChoice toolChoice) {
    return new ModelRequest(messages, config, tools, toolChoice, output);
  }

  public ModelRequest withOutput(OutputConfig output) {
    return new ModelRequest(messages, config, tools, toolChoice, output);
  }
}
