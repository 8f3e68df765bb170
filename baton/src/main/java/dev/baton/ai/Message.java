package dev.baton.ai;

import dev.baton.core.BatonException;
import dev.baton.internal.ai.Metadata;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * One message of a conversation: a role and its content parts, with optional metadata.
 *
 * <p>Messages are deeply immutable, so a history can be shared between turns, sessions and threads
 * without copying. Use the {@code with…} methods for changed copies.
 */
public record Message(Role role, List<Part> content, @Nullable ObjectNode metadata) {

  /**
   * @throws BatonException {@code INVALID_ARGUMENT} without a role, as when JSON omits it: every
   *     Genkit message has one
   */
  public Message {
    if (role == null) {
      throw BatonException.invalidArgument("a message needs a role");
    }
    content = List.copyOf(content);
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  public Message(Role role, List<Part> content) {
    this(role, content, null);
  }

  public static Message user(String text) {
    return new Message(Role.USER, List.of(Part.text(text)));
  }

  public static Message model(String text) {
    return new Message(Role.MODEL, List.of(Part.text(text)));
  }

  public static Message system(String text) {
    return new Message(Role.SYSTEM, List.of(Part.text(text)));
  }

  public static Message of(Role role, Part... parts) {
    return new Message(role, List.of(parts));
  }

  /** The text parts joined without separator, as Genkit's {@code message.text} does. */
  public String text() {
    // A loop, not a stream: this runs for every response read, often before the JIT compiled it.
    StringBuilder joined = new StringBuilder();
    for (Part part : content) {
      if (part instanceof TextPart text) {
        joined.append(text.text());
      }
    }
    return joined.toString();
  }

  /** The tool request parts, in order. */
  public List<ToolRequestPart> toolRequests() {
    return partsOf(ToolRequestPart.class);
  }

  /** The tool response parts, in order. */
  public List<ToolResponsePart> toolResponses() {
    return partsOf(ToolResponsePart.class);
  }

  /** The parts of one kind, in order. */
  public <P extends Part> List<P> partsOf(Class<P> kind) {
    // Asked of every model message, most of which hold none of the kind: no list until one.
    List<P> found = null;
    for (Part part : content) {
      if (kind.isInstance(part)) {
        if (found == null) {
          found = new ArrayList<>(content.size());
        }
        found.add(kind.cast(part));
      }
    }
    return found == null ? List.of() : List.copyOf(found);
  }

  public Message withContent(List<Part> content) {
    return new Message(role, content, metadata);
  }

  public Message withMetadata(@Nullable ObjectNode metadata) {
    return new Message(role, content, metadata);
  }

  /** This message with {@code metadata.key = true}. */
  public Message withFlag(String key) {
    return withMetadata(Metadata.withFlag(metadata, key));
  }

  /** Whether {@code metadata.key} is {@code true}. */
  public boolean hasFlag(String key) {
    return Metadata.isTrue(metadata, key);
  }
}
