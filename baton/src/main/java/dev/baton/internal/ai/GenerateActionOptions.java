package dev.baton.internal.ai;

import dev.baton.ai.Message;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolChoice;
import dev.baton.core.Json;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The JSON input of the {@code /util/generate} action, as Genkit's tools send it: tools and
 * middleware by name, output by JSON schema.
 */
public record GenerateActionOptions(
    String model,
    List<Message> messages,
    @Nullable List<String> tools,
    @Nullable ToolChoice toolChoice,
    @Nullable JsonNode config,
    @Nullable Output output,
    @Nullable Resume resume,
    @Nullable Boolean returnToolRequests,
    @Nullable Integer maxTurns,
    @Nullable List<MiddlewareRef> use) {

  public GenerateActionOptions {
    messages = messages == null ? List.of() : List.copyOf(messages);
    tools = tools == null ? null : List.copyOf(tools);
    config = config == null ? null : Json.copy(config);
    use = use == null ? null : List.copyOf(use);
  }

  /** Structured output, by JSON schema. */
  public record Output(
      @Nullable String format,
      @Nullable JsonNode jsonSchema,
      @Nullable Boolean constrained,
      @Nullable String instructions,
      @Nullable String contentType) {}

  /** A middleware by registered name, with JSON config. */
  public record MiddlewareRef(String name, @Nullable JsonNode config) {}
}
