package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** {@code {"kind": "data", "data": {…}}}: structured content, always a JSON object. */
public record DataPart(ObjectNode data, @Nullable ObjectNode metadata) implements Part {}
