package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** The params of {@code tasks/cancel} and {@code tasks/resubscribe}. */
public record TaskIdParams(String id, @Nullable ObjectNode metadata) {}
