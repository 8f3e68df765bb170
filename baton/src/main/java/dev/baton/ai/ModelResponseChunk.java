package dev.baton.ai;

import dev.baton.core.Json;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A piece of a response streamed while the model generates. {@code index} is the position of the
 * message the chunk belongs to among the messages one generate call produces: the first model
 * message is 0, its tool responses 1, the next model message 2, and so on.
 */
public record ModelResponseChunk(
    @Nullable Role role, int index, List<Part> content, @Nullable JsonNode custom) {

  public ModelResponseChunk {
    content = List.copyOf(content);
    custom = custom == null ? null : Json.copy(custom);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode custom() {
    return custom == null ? null : Json.copy(custom);
  }

  /** A chunk of message 0 with the role and content given. */
  public static ModelResponseChunk of(@Nullable Role role, List<Part> content) {
    return new ModelResponseChunk(role, 0, content, null);
  }

  /** A model text chunk for message 0. */
  public static ModelResponseChunk text(String text) {
    return of(Role.MODEL, List.of(Part.text(text)));
  }

  /** The text parts joined without separator. */
  public String text() {
    return content.stream()
        .filter(TextPart.class::isInstance)
        .map(p -> ((TextPart) p).text())
        .collect(Collectors.joining());
  }

  public ModelResponseChunk withIndex(int index) {
    return new ModelResponseChunk(role, index, content, custom);
  }

  public ModelResponseChunk withRole(@Nullable Role role) {
    return new ModelResponseChunk(role, index, content, custom);
  }
}
