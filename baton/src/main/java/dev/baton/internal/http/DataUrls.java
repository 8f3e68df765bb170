package dev.baton.internal.http;

import org.jspecify.annotations.Nullable;

/**
 * What the model plugins read from a {@code data:} URL that a {@code Media} part carries.
 *
 * <p>Stateless and thread-safe.
 */
public final class DataUrls {
  private static final int PREFIX = "data:".length();

  private DataUrls() {}

  /**
   * The media type a {@code data:} URL names ({@code image/png} in {@code
   * data:image/png;base64,...}), or null when it names none.
   */
  public static @Nullable String mediaType(String url) {
    int end = url.length();
    for (char stop : new char[] {';', ','}) {
      int at = url.indexOf(stop);
      if (at >= 0 && at < end) {
        end = at;
      }
    }
    String type = url.substring(PREFIX, Math.max(PREFIX, end));
    return type.isEmpty() ? null : type;
  }
}
