package dev.baton.server;

import dev.baton.core.Json;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a {@link ContextProvider} sees of a request, as Genkit's context providers do.
 *
 * @param method the HTTP method, upper case
 * @param headers the request's headers, names in lower case, several values of one name joined with
 *     a space
 * @param input the {@code data} of the request body, or null when it has none; a copy
 */
public record RequestData(String method, Map<String, String> headers, @Nullable JsonNode input) {

  public RequestData {
    headers = Map.copyOf(headers);
    input = input == null ? null : Json.copy(input);
  }

  /** A request with the method and headers given and no input. */
  public static RequestData of(String method, Map<String, String> headers) {
    return new RequestData(method, headers, null);
  }

  public RequestData withInput(@Nullable JsonNode input) {
    return new RequestData(method, headers, input);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode input() {
    return input == null ? null : Json.copy(input);
  }

  /** A header's value by its name in any case, or null. */
  public @Nullable String header(String name) {
    return headers.get(name.toLowerCase(java.util.Locale.ROOT));
  }
}
