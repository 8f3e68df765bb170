package dev.baton.a2a.internal.wire;

import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** A unit of work in a context: its status, what it produced and the messages it exchanged. */
public record Task(
    String id,
    String contextId,
    TaskStatus status,
    @Nullable List<Artifact> artifacts,
    @Nullable List<Message> history,
    @Nullable ObjectNode metadata)
    implements Event {}
