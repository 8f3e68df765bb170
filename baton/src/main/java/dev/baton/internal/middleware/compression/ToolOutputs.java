package dev.baton.internal.middleware.compression;

import dev.baton.ai.Part;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolResponse;
import dev.baton.core.Json;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A tool response as text: its output (a string as it is, any other value as compact JSON) followed
 * by its text content, one line each. This is what a limit counts and what a truncated response
 * keeps. Non-text content (media) is neither counted nor cut.
 */
final class ToolOutputs {
  private ToolOutputs() {}

  /** The characters of the response's text rendering, JSON escapes aside. */
  static long chars(ToolResponse response) {
    JsonNode output = response.output();
    long chars = output == null ? 0 : outputChars(output);
    boolean first = output == null;
    for (Part part : contentOf(response)) {
      if (part instanceof TextPart text) {
        chars += text.text().length() + (first ? 0 : 1);
        first = false;
      }
    }
    return chars;
  }

  /**
   * The response cut to {@code maxChars} characters of its rendering, followed by a line saying how
   * much was cut, with its text content folded into the output; the response itself when it is not
   * longer than that.
   */
  static ToolResponse truncated(ToolResponse response, int maxChars) {
    if (chars(response) <= maxChars) {
      return response;
    }
    String text = render(response);
    if (text.length() <= maxChars) {
      return response;
    }
    int end = Character.isHighSurrogate(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
    String kept =
        text.substring(0, end)
            + "\n[Truncated: showing the first "
            + end
            + " of "
            + text.length()
            + " characters.]";
    return withOutput(response, kept, nonText(response));
  }

  /** The response with {@code notice} as its output and no content. */
  static ToolResponse replaced(ToolResponse response, String notice) {
    return withOutput(response, notice, null);
  }

  private static long outputChars(JsonNode output) {
    return output.isString() ? output.asString().length() : TokenEstimator.jsonChars(output);
  }

  /** The response's text rendering. */
  static String render(ToolResponse response) {
    JsonNode output = response.output();
    if (response.content() == null && output != null && output.isString()) {
      return output.asString();
    }
    StringBuilder text = new StringBuilder();
    if (output != null) {
      text.append(output.isString() ? output.asString() : Json.write(output));
    }
    boolean first = output == null;
    for (Part part : contentOf(response)) {
      if (part instanceof TextPart content) {
        if (!first) {
          text.append('\n');
        }
        text.append(content.text());
        first = false;
      }
    }
    return text.toString();
  }

  private static @Nullable List<Part> nonText(ToolResponse response) {
    List<Part> kept = new ArrayList<>();
    for (Part part : contentOf(response)) {
      if (!(part instanceof TextPart)) {
        kept.add(part);
      }
    }
    return kept.isEmpty() ? null : kept;
  }

  private static List<Part> contentOf(ToolResponse response) {
    List<Part> content = response.content();
    return content == null ? List.of() : content;
  }

  private static ToolResponse withOutput(
      ToolResponse response, String output, @Nullable List<Part> content) {
    return response.withOutput(Json.nodes().stringNode(output)).withContent(content);
  }
}
