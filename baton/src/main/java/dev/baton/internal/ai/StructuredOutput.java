package dev.baton.internal.ai;

import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.OutputConfig;
import dev.baton.ai.OutputOptions;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.core.SchemaValidator;
import dev.baton.internal.core.SharedList;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Structured output for one generate call: how the request asks for it, and how the final text is
 * read back.
 */
final class StructuredOutput {
  /** Marks the instruction part appended to a user message, as Genkit does. */
  static final String PURPOSE = "purpose";

  private final @Nullable OutputOptions options;
  private final boolean constrained;

  private StructuredOutput(@Nullable OutputOptions options, boolean constrained) {
    this.options = options;
    this.constrained = constrained;
  }

  /**
   * How a call asks for its output. The schema is left to the model where it constrains decoding:
   * always with {@code constrained: "all"}, and only in calls without tools with {@code
   * "no-tools"}. Elsewhere the schema becomes instructions.
   */
  static StructuredOutput of(@Nullable OutputOptions options, ModelInfo info, boolean hasTools) {
    String supported = info.supports().constrained();
    boolean modelConstrains =
        "all".equals(supported) || ("no-tools".equals(supported) && !hasTools);
    boolean wanted = options != null && !Boolean.FALSE.equals(options.constrained());
    return new StructuredOutput(
        options,
        options != null
            && options.isJson()
            && options.schema() != null
            && wanted
            && modelConstrains);
  }

  /** The request's {@code output} field. */
  OutputConfig config() {
    if (options == null) {
      return OutputConfig.NONE;
    }
    return OutputConfig.of(options.format(), options.schema())
        .withConstrained(constrained ? Boolean.TRUE : null);
  }

  /**
   * The conversation with format instructions appended to its last user message (or as a user
   * message of their own), for a model that will not enforce the schema itself; the conversation as
   * it is otherwise.
   */
  List<Message> withInstructions(List<Message> messages) {
    if (options == null || constrained || !options.isJson()) {
      return messages;
    }
    String text = options.instructions() != null ? options.instructions() : defaultInstructions();
    Part instruction =
        Part.text(text)
            .withMetadata(Metadata.with(null, PURPOSE, Json.nodes().stringNode("output")));
    for (int i = messages.size() - 1; i >= 0; i--) {
      Message message = messages.get(i);
      if (message.role() == Role.USER) {
        List<Part> content = new ArrayList<>(message.content());
        content.add(instruction);
        return SharedList.with(messages, i, message.withContent(content));
      }
    }
    return SharedList.append(messages, new Message(Role.USER, List.of(instruction)));
  }

  private String defaultInstructions() {
    StringBuilder text = new StringBuilder("Reply with JSON only, no other text.");
    if (options != null && options.schema() != null) {
      JsonNode schema = Json.withoutField(options.schema(), "$schema");
      text.append(" The JSON must conform to this JSON schema:\n\n```json\n")
          .append(Json.writePretty(schema))
          .append("\n```\n");
    }
    return text.toString();
  }

  /**
   * Reads the structured output from the final message, or null when none was asked for.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when the text is not JSON or does not match the
   *     schema
   */
  @Nullable JsonNode parse(Message message) {
    if (options == null || !options.isJson()) {
      return null;
    }
    String text = stripFences(message.text());
    JsonNode value;
    try {
      value = Json.parse(text);
    } catch (BatonException e) {
      throw BatonException.invalidArgument(
          "the model's output is not valid JSON (%s): %s", e.getMessage(), abbreviate(text));
    }
    if (options.schema() != null) {
      SchemaValidator.compile(options.schema()).validate(value, "the model's output");
    }
    return value;
  }

  /** Models often wrap JSON in a Markdown code fence even when told not to. */
  private static String stripFences(String text) {
    String trimmed = text.strip();
    if (trimmed.startsWith("```")) {
      int firstNewline = trimmed.indexOf('\n');
      int lastFence = trimmed.lastIndexOf("```");
      if (firstNewline > 0 && lastFence > firstNewline) {
        return trimmed.substring(firstNewline + 1, lastFence).strip();
      }
    }
    return trimmed;
  }

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "…";
  }
}
