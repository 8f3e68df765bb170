package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * An artifact of a task on a stream: a new one, or with {@code append} more parts of one already
 * sent whose id it repeats.
 */
public record TaskArtifactUpdateEvent(
    String taskId,
    String contextId,
    Artifact artifact,
    @Nullable Boolean append,
    @Nullable Boolean lastChunk,
    @Nullable ObjectNode metadata)
    implements Event {}
