package dev.baton.a2a.internal.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** A task's new status on a stream; {@code final} closes the stream. */
public record TaskStatusUpdateEvent(
    String taskId,
    String contextId,
    TaskStatus status,
    @JsonProperty("final") boolean last,
    @Nullable ObjectNode metadata)
    implements Event {}
