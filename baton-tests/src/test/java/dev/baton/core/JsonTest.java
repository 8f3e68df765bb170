package dev.baton.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

class JsonTest {
  record Row(String id, @Nullable String note, List<String> tags, Instant at) {}

  private record Range(int from, int to) {
    Range {
      if (from > to) {
        throw new IllegalArgumentException("from " + from + " is after to " + to);
      }
    }
  }

  @Test
  void nullFieldsAreOmittedButEmptyCollectionsAreKept() {
    String json =
        Json.write(new Row("a", null, List.of(), Instant.parse("2026-11-29T21:07:38.860Z")));
    assertThat(json).isEqualTo("{\"id\":\"a\",\"tags\":[],\"at\":\"2026-11-29T21:07:38.860Z\"}");
  }

  @Test
  void timesReadRfc3339WithOffsets() {
    Row row =
        Json.read("{\"id\":\"a\",\"tags\":[],\"at\":\"2026-11-29T22:07:38+01:00\"}", Row.class);
    assertThat(row.at()).isEqualTo(Instant.parse("2026-11-29T21:07:38Z"));
  }

  @Test
  void unknownFieldsAreIgnoredForForwardCompatibility() {
    Row row =
        Json.read(
            "{\"id\":\"a\",\"future\":1,\"tags\":[],\"at\":\"2026-01-01T00:00:00Z\"}", Row.class);
    assertThat(row.id()).isEqualTo("a");
  }

  @Test
  void malformedJsonIsInvalidArgument() {
    assertThatThrownBy(() -> Json.parse("{\"id\":"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("malformed JSON");
    assertThatThrownBy(() -> Json.read("{\"tags\": 3}", Row.class))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
  }

  @Test
  void aRecordReadsThroughItsConstructorWhateverItsAccess() {
    assertThat(Json.read("{\"to\":2,\"from\":1}", Range.class)).isEqualTo(new Range(1, 2));
    assertThat(Json.convert(Json.parse("{\"from\":3,\"to\":3}"), Range.class))
        .isEqualTo(new Range(3, 3));
  }

  @Test
  void aConstructorThatRejectsItsInputIsInvalidArgumentWithItsReason() {
    assertThatThrownBy(() -> Json.read("{\"from\":2,\"to\":1}", Range.class))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("from 2 is after to 1");
    assertThatThrownBy(() -> Json.convert(Json.parse("{\"from\":2,\"to\":1}"), Range.class))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("from 2 is after to 1");
  }

  @Test
  void deepCopySharesNothingMutable() {
    var list = new java.util.ArrayList<>(List.of(1, 2));
    var original = new java.util.HashMap<String, Object>();
    original.put("list", list);
    @SuppressWarnings("unchecked") // Map.class stands for the HashMap<String, Object> given
    java.util.Map<?, ?> copy = Json.deepCopy(original, java.util.Map.class);
    list.add(3);
    assertThat((List<?>) copy.get("list")).hasSize(2);
  }

  @Test
  void jsonEqualityComparesNumbersByValue() {
    assertThat(
            Json.jsonEquals(
                Json.parse("{\"a\":1,\"b\":[1.0]}"), Json.parse("{\"b\":[1],\"a\":1.00}")))
        .isTrue();
    assertThat(Json.jsonEquals(Json.parse("{\"a\":1}"), Json.parse("{\"a\":2}"))).isFalse();
    assertThat(Json.jsonEquals(Json.parse("{\"a\":1}"), Json.parse("{\"a\":1,\"b\":null}")))
        .isFalse();
  }

  @Test
  void aNumberOrBooleanIsNotReadAsAString() {
    for (String value : List.of("5", "5.5", "true")) {
      assertThatThrownBy(
              () -> Json.read("{\"id\":" + value + ",\"tags\":[],\"at\":null}", Row.class))
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    }
  }

  @Test
  void aTreeBuiltTooDeepIsInvalidArgumentWhereverItEnters() {
    JsonNode deep = nested(50_000);
    java.util.Map<String, Runnable> entries =
        java.util.Map.of(
            "copy", () -> Json.copy(deep),
            "write", () -> Json.write(deep),
            "writeBytes", () -> Json.writeBytes(deep),
            "convert", () -> Json.convert(deep, java.util.List.class),
            "toTree", () -> Json.toTree(java.util.Map.of("deep", deep)));
    for (var entry : entries.entrySet()) {
      assertThat(catchThrowable(entry.getValue()::run))
          .as(entry.getKey())
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT);
                assertThat(e.getMessage()).contains("nested");
              });
    }
  }

  @Test
  void aTreeAtTheDepthLimitIsCopiedAndWritten() {
    JsonNode deep = nested(Json.MAX_DEPTH);

    assertThat(Json.copy(deep)).isEqualTo(deep).isNotSameAs(deep);
    assertThat(Json.parse(Json.write(deep))).isEqualTo(deep);
  }

  /** An array nested {@code depth} levels deep, built without recursion. */
  private static JsonNode nested(int depth) {
    ArrayNode root = Json.nodes().arrayNode();
    ArrayNode current = root;
    for (int i = 1; i < depth; i++) {
      current = current.addArray();
    }
    return root;
  }
}
