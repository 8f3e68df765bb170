package dev.baton.a2a.internal.wire;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.OptBoolean;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** One piece of a message's or an artifact's content, told apart by {@code kind}. */
@JsonTypeInfo(
    use = JsonTypeInfo.Id.NAME,
    property = "kind",
    requireTypeIdForSubtypes = OptBoolean.FALSE)
@JsonSubTypes({
  @JsonSubTypes.Type(value = TextPart.class, name = "text"),
  @JsonSubTypes.Type(value = FilePart.class, name = "file"),
  @JsonSubTypes.Type(value = DataPart.class, name = "data")
})
public sealed interface Part permits TextPart, FilePart, DataPart {
  @Nullable ObjectNode metadata();
}
