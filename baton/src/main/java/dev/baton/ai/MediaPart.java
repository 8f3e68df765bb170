package dev.baton.ai;

import dev.baton.internal.ai.Metadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.node.ObjectNode;

/** An image, audio, video or document, by URL. */
@JsonDeserialize(using = ValueDeserializer.None.class)
public record MediaPart(Media media, @Nullable ObjectNode metadata) implements Part {
  public MediaPart {
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  @Override
  public MediaPart withMetadata(@Nullable ObjectNode metadata) {
    return new MediaPart(media, metadata);
  }
}
