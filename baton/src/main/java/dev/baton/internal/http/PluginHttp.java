package dev.baton.internal.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * The checks and defaults every HTTP model plugin's builder shares.
 *
 * <p>Stateless and thread-safe.
 */
public final class PluginHttp {
  /** How long a plugin's own client waits for a connection. */
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

  private PluginHttp() {}

  /** The client a plugin makes when the builder was given none. */
  public static HttpClient defaultClient() {
    return HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
  }

  /**
   * {@code duration}, checked to be positive.
   *
   * @throws IllegalArgumentException when it is zero or negative
   */
  public static Duration positive(Duration duration, String name) {
    if (Objects.requireNonNull(duration, name).isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + duration);
    }
    return duration;
  }

  /**
   * {@code url}, checked to be an {@code http} or {@code https} URL.
   *
   * @throws IllegalArgumentException when it is not
   */
  public static URI httpUrl(URI url, String name) {
    String scheme = Objects.requireNonNull(url, name).getScheme();
    if (!"https".equals(scheme) && !"http".equals(scheme)) {
      throw new IllegalArgumentException(name + " must be an http or https URL: " + url);
    }
    return url;
  }
}
