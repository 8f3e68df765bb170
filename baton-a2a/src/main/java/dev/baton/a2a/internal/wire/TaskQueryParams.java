package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** The params of {@code tasks/get}: the task, and how many of its last messages to return. */
public record TaskQueryParams(
    String id, @Nullable Integer historyLength, @Nullable ObjectNode metadata) {}
