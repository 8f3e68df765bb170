package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.Nullable;

/**
 * A file's content: exactly one of {@code bytes} (base64) and {@code uri}, which the specification
 * gives as two shapes ({@code FileWithBytes}, {@code FileWithUri}) told apart by which is present.
 */
public record FileContent(
    @Nullable String name,
    @Nullable String mimeType,
    @Nullable String bytes,
    @Nullable String uri) {

  public static FileContent ofBytes(@Nullable String mimeType, String base64) {
    return new FileContent(null, mimeType, base64, null);
  }

  public static FileContent ofUri(@Nullable String mimeType, String uri) {
    return new FileContent(null, mimeType, null, uri);
  }
}
