package dev.baton.server;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Ready-made {@link ContextProvider}s. They keep no state of their own, so they are thread-safe
 * when the verifier given to them is.
 */
public final class ContextProviders {
  private ContextProviders() {}

  /**
   * Requires {@code Authorization: Bearer <token>} and asks {@code verifier} what the token stands
   * for. The verifier returns the auth context of a valid token (put the caller's ID under {@link
   * dev.baton.core.ActionContext#PRINCIPAL} to give it sessions of its own), null for an invalid
   * one, or throws {@code PERMISSION_DENIED} for a valid token that may not make the request.
   *
   * <p>A missing, malformed or invalid token is refused with {@code UNAUTHENTICATED} (HTTP 401).
   * The token itself is not put in the auth context.
   */
  public static ContextProvider bearerToken(Function<String, @Nullable Map<String, ?>> verifier) {
    Objects.requireNonNull(verifier, "verifier");
    return request -> {
      String header = request.header("authorization");
      String token =
          header != null && header.length() > 7 && header.regionMatches(true, 0, "Bearer ", 0, 7)
              ? header.substring(7).strip()
              : "";
      if (token.isEmpty()) {
        throw BatonException.of(
            Status.UNAUTHENTICATED, "a bearer token is required (Authorization: Bearer <token>)");
      }
      Map<String, ?> auth = verifier.apply(token);
      if (auth == null) {
        throw BatonException.of(Status.UNAUTHENTICATED, "the bearer token is not valid");
      }
      return auth;
    };
  }

  /**
   * Requires the API key {@code key} in the {@code Authorization} header, as Genkit JS's {@code
   * apiKey} does: a request without one is refused with {@code UNAUTHENTICATED} (HTTP 401), one
   * with another key with {@code PERMISSION_DENIED} (403). The auth context is {@code {"apiKey":
   * <key>}}. Keys are compared in constant time.
   */
  public static ContextProvider apiKey(String key) {
    if (key.isEmpty()) {
      throw new IllegalArgumentException("the API key must not be empty");
    }
    byte[] expected = key.getBytes(StandardCharsets.UTF_8);
    return request -> {
      String given = request.header("authorization");
      if (given == null || given.isEmpty()) {
        throw BatonException.of(Status.UNAUTHENTICATED, "Unauthenticated");
      }
      if (!MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
        throw BatonException.of(Status.PERMISSION_DENIED, "Permission Denied");
      }
      return Map.of("apiKey", given);
    };
  }
}
