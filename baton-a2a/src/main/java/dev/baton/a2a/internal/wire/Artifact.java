package dev.baton.a2a.internal.wire;

import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Something a task produced (a document, an image, structured data), as parts. */
public record Artifact(
    String artifactId,
    @Nullable String name,
    @Nullable String description,
    List<Part> parts,
    @Nullable List<String> extensions,
    @Nullable ObjectNode metadata) {}
