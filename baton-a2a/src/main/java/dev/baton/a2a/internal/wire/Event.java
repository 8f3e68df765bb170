package dev.baton.a2a.internal.wire;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.OptBoolean;

/**
 * What {@code message/send} answers and {@code message/stream} and {@code tasks/resubscribe}
 * stream, told apart by {@code kind}. A value read where its own type is expected (a message in
 * {@code message/send}'s params) may leave {@code kind} out.
 */
@JsonTypeInfo(
    use = JsonTypeInfo.Id.NAME,
    property = "kind",
    requireTypeIdForSubtypes = OptBoolean.FALSE)
@JsonSubTypes({
  @JsonSubTypes.Type(value = Message.class, name = "message"),
  @JsonSubTypes.Type(value = Task.class, name = "task"),
  @JsonSubTypes.Type(value = TaskStatusUpdateEvent.class, name = "status-update"),
  @JsonSubTypes.Type(value = TaskArtifactUpdateEvent.class, name = "artifact-update")
})
public sealed interface Event
    permits Message, Task, TaskStatusUpdateEvent, TaskArtifactUpdateEvent {}
