package dev.baton.ai;

import dev.baton.internal.ai.Metadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model's visible reasoning (thought summary). Providers keep what they need to replay it, such
 * as a signature, in the metadata.
 */
@JsonDeserialize(using = ValueDeserializer.None.class)
public record ReasoningPart(String reasoning, @Nullable ObjectNode metadata) implements Part {
  public ReasoningPart {
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  @Override
  public ReasoningPart withMetadata(@Nullable ObjectNode metadata) {
    return new ReasoningPart(reasoning, metadata);
  }
}
