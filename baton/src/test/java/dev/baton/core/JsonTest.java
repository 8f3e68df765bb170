package dev.baton.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class JsonTest {
  record Row(String id, @Nullable String note, List<String> tags, Instant at) {}

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
  void deepCopySharesNothingMutable() {
    var original = new java.util.HashMap<String, Object>();
    original.put("list", new java.util.ArrayList<>(List.of(1, 2)));
    @SuppressWarnings("unchecked")
    var copy = (java.util.Map<String, Object>) Json.deepCopy(original, java.util.Map.class);
    ((java.util.List<Object>) original.get("list")).add(3);
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
}
