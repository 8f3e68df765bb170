package dev.baton.ai;

import dev.baton.internal.ai.Metadata;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers to the interrupted tool calls of the last model message. An entry that is null, or lacks
 * its tool response or request, is skipped, as in Genkit.
 *
 * @param respond tool responses that stand in for the interrupted calls, matched by name and ref
 * @param restart tool requests that re-run interrupted calls; {@code metadata.resumed} carries the
 *     caller's data to the tool and {@code metadata.replacedInput} the original input when the
 *     restart changes it
 * @param metadata extra metadata for the resulting tool message
 */
public record Resume(
    List<ToolResponsePart> respond, List<ToolRequestPart> restart, @Nullable ObjectNode metadata) {
  public Resume {
    respond = withPayload(respond, ToolResponsePart::toolResponse);
    restart = withPayload(restart, ToolRequestPart::toolRequest);
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  /** The entries that carry their payload: Genkit skips a null entry or one without it. */
  private static <P> List<P> withPayload(@Nullable List<P> entries, Function<P, ?> payload) {
    if (entries == null) {
      return List.of();
    }
    return entries.stream().filter(e -> e != null && payload.apply(e) != null).toList();
  }

  public static Resume respond(ToolResponsePart... responses) {
    return new Resume(List.of(responses), List.of(), null);
  }

  public static Resume restart(ToolRequestPart... requests) {
    return new Resume(List.of(), List.of(requests), null);
  }

  /** Some calls answered with a response, the others restarted, in one resume. */
  public static Resume of(List<ToolResponsePart> responses, List<ToolRequestPart> restarts) {
    return new Resume(responses, restarts, null);
  }

  public boolean isEmpty() {
    return respond.isEmpty() && restart.isEmpty();
  }
}
