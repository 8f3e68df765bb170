package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.baton.ai.Part;
import dev.baton.ai.TextPart;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A named piece of work an agent produced (a report, a file), kept in its session. A session holds
 * at most one artifact per name: adding one under an existing name replaces it in place. An
 * artifact without a name is always appended.
 *
 * @param name the name, or null
 * @param parts the content; always serialised, even when empty
 * @param metadata free-form metadata; delegation sets {@code source} and {@code invocationId}
 */
public record Artifact(
    @Nullable String name,
    @JsonInclude(JsonInclude.Include.ALWAYS) List<Part> parts,
    @Nullable ObjectNode metadata) {

  public Artifact {
    parts = parts == null ? List.of() : List.copyOf(parts);
    metadata = metadata == null ? null : metadata.deepCopy();
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  /** An artifact of the given parts, without metadata. */
  public static Artifact of(@Nullable String name, List<Part> parts) {
    return new Artifact(name, parts, null);
  }

  /** A text artifact. */
  public static Artifact text(String name, String text) {
    return new Artifact(name, List.of(Part.text(text)), null);
  }

  /** The text parts joined with newlines; other parts are ignored. */
  public String text() {
    return parts.stream()
        .filter(TextPart.class::isInstance)
        .map(p -> ((TextPart) p).text())
        .collect(Collectors.joining("\n"));
  }

  public Artifact withName(@Nullable String name) {
    return new Artifact(name, parts, metadata);
  }

  public Artifact withMetadata(@Nullable ObjectNode metadata) {
    return new Artifact(name, parts, metadata);
  }
}
