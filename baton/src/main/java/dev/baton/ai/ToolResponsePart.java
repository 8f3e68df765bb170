package dev.baton.ai;

import dev.baton.internal.ai.Metadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.node.ObjectNode;

/** A tool's answer, in a {@link Role#TOOL} message. */
@JsonDeserialize(using = ValueDeserializer.None.class)
public record ToolResponsePart(ToolResponse toolResponse, @Nullable ObjectNode metadata)
    implements Part {
  public ToolResponsePart {
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  @Override
  public ToolResponsePart withMetadata(@Nullable ObjectNode metadata) {
    return new ToolResponsePart(toolResponse, metadata);
  }
}
