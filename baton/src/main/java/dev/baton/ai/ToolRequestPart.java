package dev.baton.ai;

import dev.baton.internal.ai.Metadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model asking to call a tool. The generate loop marks an interrupted request with {@code
 * metadata.interrupt} and keeps a completed sibling's output in {@code metadata.pendingOutput}.
 */
@JsonDeserialize(using = ValueDeserializer.None.class)
public record ToolRequestPart(ToolRequest toolRequest, @Nullable ObjectNode metadata)
    implements Part {
  public ToolRequestPart {
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  @Override
  public ToolRequestPart withMetadata(@Nullable ObjectNode metadata) {
    return new ToolRequestPart(toolRequest, metadata);
  }
}
