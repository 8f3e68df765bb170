package dev.baton.ai;

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

  @Override
  public TextPart withMetadata(@Nullable ObjectNode metadata) {
    return new TextPart(text, metadata);
  }
}
