package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** {@code {"kind": "file", "file": {…}}}: a file sent inline (base64) or by URI. */
public record FilePart(FileContent file, @Nullable ObjectNode metadata) implements Part {}
