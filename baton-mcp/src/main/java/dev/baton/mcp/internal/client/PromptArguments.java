package dev.baton.mcp.internal.client;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An MCP prompt's arguments as a Baton prompt's input: the input schema they describe, and the
 * string values a {@code prompts/get} request carries.
 */
final class PromptArguments {
  private PromptArguments() {}

  /**
   * An object schema with one string property per argument, its description kept, and the required
   * arguments required. Other properties are allowed: the server decides what it ignores.
   */
  static ObjectNode schema(McpSchema.Prompt prompt) {
    ObjectNode schema = Json.object().put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    ArrayNode required = Json.nodes().arrayNode();
    for (McpSchema.PromptArgument argument : arguments(prompt)) {
      ObjectNode property = properties.putObject(argument.name()).put("type", "string");
      if (argument.description() != null) {
        property.put("description", argument.description());
      }
      if (Boolean.TRUE.equals(argument.required())) {
        required.add(argument.name());
      }
    }
    if (!required.isEmpty()) {
      schema.set("required", required);
    }
    return schema;
  }

  /**
   * The request's arguments from a prompt's input: MCP prompt arguments are strings, so a string
   * goes as it is, a number, boolean, object or array as its JSON text, and a null is left out.
   *
   * @param name the prompt's name as Baton knows it, for messages
   * @throws BatonException {@code INVALID_ARGUMENT} when the input is not an object, or lacks an
   *     argument the prompt requires
   */
  static Map<String, Object> of(String name, McpSchema.Prompt prompt, JsonNode input) {
    if (!input.isObject() && !input.isNull() && !input.isMissingNode()) {
      throw BatonException.invalidArgument(
          "MCP prompt \"%s\" takes an object of arguments, not %s", name, input.getNodeType());
    }
    Map<String, Object> arguments = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : input.properties()) {
      JsonNode value = field.getValue();
      if (!value.isNull()) {
        arguments.put(field.getKey(), value.isString() ? value.asString() : Json.write(value));
      }
    }
    for (McpSchema.PromptArgument argument : arguments(prompt)) {
      if (Boolean.TRUE.equals(argument.required()) && !arguments.containsKey(argument.name())) {
        throw BatonException.invalidArgument(
            "MCP prompt \"%s\" needs the argument \"%s\"", name, argument.name());
      }
    }
    return arguments;
  }

  private static List<McpSchema.PromptArgument> arguments(McpSchema.Prompt prompt) {
    return prompt.arguments() == null ? List.of() : prompt.arguments();
  }
}
