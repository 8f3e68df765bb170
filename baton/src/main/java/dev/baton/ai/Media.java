package dev.baton.ai;

import dev.baton.core.BatonException;
import org.jspecify.annotations.Nullable;

/** Media referenced by URL: an {@code https:}, {@code gs:} or {@code data:} URL and its type. */
public record Media(String url, @Nullable String contentType) {
  /**
   * Requires the URL.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} without a URL, as when JSON omits it
   */
  public Media {
    if (url == null) {
      throw BatonException.invalidArgument("media needs a url");
    }
  }
}
