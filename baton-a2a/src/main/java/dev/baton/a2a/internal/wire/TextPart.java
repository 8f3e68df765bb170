package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** {@code {"kind": "text", "text": …}}. */
public record TextPart(String text, @Nullable ObjectNode metadata) implements Part {}
