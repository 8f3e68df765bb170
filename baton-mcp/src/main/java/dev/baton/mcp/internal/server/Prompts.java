package dev.baton.mcp.internal.server;

import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.mcp.internal.McpContent;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Baton prompt as an MCP prompt. Its arguments are the top-level properties of its input schema
 * (MCP sends every argument as a string); {@code prompts/get} renders the prompt with the arguments
 * as its input and answers the rendered messages. MCP prompts know only the user and assistant
 * roles: the system text comes first as a user message, a model message is the assistant's, and a
 * tool message is refused. A message carries text, and images and audio at base64 {@code data:}
 * URLs; other parts are refused. A failure answers a JSON-RPC error with a message a client may
 * see.
 */
public final class Prompts {
  private Prompts() {}

  public static SyncPromptSpecification of(ExecutablePrompt prompt, Serving serving) {
    McpSchema.Prompt described =
        McpSchema.Prompt.builder(prompt.name())
            .description(prompt.descriptor().description())
            .arguments(arguments(prompt.descriptor().inputSchema()))
            .build();
    return new SyncPromptSpecification(
        described,
        (exchange, request) -> {
          try {
            GenerateOptions rendered =
                prompt.render(serving.context(exchange), input(request), List.of()).build();
            return GetPromptResult.builder(messages(rendered))
                .description(described.description())
                .build();
          } catch (RuntimeException failure) {
            BatonException error = serving.failures().classify(failure);
            McpError answer =
                McpError.builder(
                        error.status() == Status.INVALID_ARGUMENT
                            ? McpSchema.ErrorCodes.INVALID_PARAMS
                            : McpSchema.ErrorCodes.INTERNAL_ERROR)
                    .message(serving.failures().wire(error).message())
                    .build();
            throw answer;
          }
        });
  }

  private static List<PromptArgument> arguments(@Nullable JsonNode schema) {
    if (schema == null || !schema.path("properties").isObject()) {
      return List.of();
    }
    Set<String> required = new HashSet<>();
    schema.path("required").forEach(name -> required.add(name.asString()));
    List<PromptArgument> arguments = new ArrayList<>();
    for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
      String description = property.getValue().path("description").asString(null);
      arguments.add(
          PromptArgument.builder(property.getKey())
              .description(description)
              .required(required.contains(property.getKey()))
              .build());
    }
    return arguments;
  }

  private static ObjectNode input(GetPromptRequest request) {
    ObjectNode input = Json.object();
    if (request.arguments() != null) {
      request.arguments().forEach((name, value) -> input.set(name, Json.toTree(value)));
    }
    return input;
  }

  private static List<PromptMessage> messages(GenerateOptions rendered) {
    List<PromptMessage> messages = new ArrayList<>();
    if (rendered.system() != null) {
      messages.add(
          new PromptMessage(McpSchema.Role.USER, TextContent.builder(rendered.system()).build()));
    }
    for (Message message : rendered.messages()) {
      McpSchema.Role role = role(message.role());
      for (Part part : message.content()) {
        messages.add(new PromptMessage(role, McpContent.toContent(part)));
      }
    }
    if (rendered.prompt() != null) {
      for (Part part : rendered.prompt()) {
        messages.add(new PromptMessage(McpSchema.Role.USER, McpContent.toContent(part)));
      }
    }
    return messages;
  }

  private static McpSchema.Role role(Role role) {
    return switch (role) {
      case USER, SYSTEM -> McpSchema.Role.USER;
      case MODEL -> McpSchema.Role.ASSISTANT;
      case TOOL ->
          throw BatonException.failedPrecondition(
              "the prompt renders a tool message, which MCP prompts cannot carry");
    };
  }
}
