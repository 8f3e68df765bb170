package dev.baton.testing;

import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The "contains" comparison of Genkit's conformance suites: every field the expected value has must
 * match in the actual one (extra actual fields are fine), arrays match as ordered subsequences
 * (each expected element matches a later actual element, in order), and scalars compare as JSON
 * values ({@code 1} equals {@code 1.0}).
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonMatch {
  private JsonMatch() {}

  public static boolean contains(@Nullable JsonNode actual, JsonNode expected) {
    if (expected.isNull()) {
      return actual == null || actual.isNull() || actual.isMissingNode();
    }
    if (actual == null || actual.isMissingNode()) {
      return false;
    }
    if (expected.isObject()) {
      if (!actual.isObject()) {
        return false;
      }
      for (var field : expected.properties()) {
        if (!contains(actual.get(field.getKey()), field.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (expected.isArray()) {
      if (!actual.isArray()) {
        return false;
      }
      int from = 0;
      for (JsonNode wanted : expected) {
        while (from < actual.size() && !contains(actual.get(from), wanted)) {
          from++;
        }
        if (from == actual.size()) {
          return false;
        }
        from++;
      }
      return true;
    }
    return Json.jsonEquals(actual, expected);
  }
}
