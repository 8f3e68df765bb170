package dev.baton.ai;

import dev.baton.internal.ai.Metadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.node.ObjectNode;

/** Plain text. */
@JsonDeserialize(using = ValueDeserializer.None.class)
public record TextPart(String text, @Nullable ObjectNode metadata) implements Part {
  public TextPart {
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  @Override
  public TextPart withMetadata(@Nullable ObjectNode metadata) {
    return new TextPart(text, metadata);
  }
}
