package dev.baton.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectMapper;

class SpreadCreatorsTest {
  record Range(int from, int to) {
    Range {
      if (from > to) {
        throw new IllegalArgumentException("from " + from + " is after to " + to);
      }
    }
  }

  record Renamed(@JsonProperty("full_name") String name, @Nullable Long count) {}

  record Box<T>(T value, List<T> more) {}

  record Nested(Range range, Map<String, Renamed> byKey) {}

  private static final ObjectMapper WITHOUT = Json.mapper().rebuild().removeAllModules().build();

  @Test
  void everyRecordReadsAsJacksonReadsItWithoutTheModule() {
    List<Map.Entry<String, Class<?>>> cases =
        List.of(
            Map.entry("{\"from\":1,\"to\":2}", Range.class),
            Map.entry("{\"to\":2}", Range.class),
            Map.entry("{\"from\":1}", Range.class),
            Map.entry("{\"from\":3,\"to\":1}", Range.class),
            Map.entry("{\"from\":null,\"to\":1}", Range.class),
            Map.entry("{\"from\":\"x\",\"to\":1}", Range.class),
            Map.entry("{\"full_name\":\"a\",\"count\":3}", Renamed.class),
            Map.entry("{\"name\":\"a\"}", Renamed.class),
            Map.entry("{\"full_name\":\"a\",\"count\":null}", Renamed.class),
            Map.entry("{\"value\":1,\"more\":[2,3]}", Box.class),
            Map.entry("{\"value\":null}", Box.class),
            Map.entry(
                "{\"range\":{\"from\":1,\"to\":1},\"byKey\":{\"k\":{\"full_name\":\"n\"}}}",
                Nested.class),
            Map.entry("{\"range\":{\"from\":2,\"to\":1},\"byKey\":{}}", Nested.class),
            Map.entry("[1,2]", Range.class),
            Map.entry("\"text\"", Renamed.class));
    for (Map.Entry<String, Class<?>> c : cases) {
      assertThat(outcome(Json.mapper(), c.getKey(), c.getValue()))
          .as(c.getKey())
          .isEqualTo(outcome(WITHOUT, c.getKey(), c.getValue()));
    }
  }

  @Test
  void theMapperStaysSerializable() throws Exception {
    var bytes = new ByteArrayOutputStream();
    try (var out = new ObjectOutputStream(bytes)) {
      out.writeObject(Json.mapper());
    }
    ObjectMapper copy;
    try (var in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copy = (ObjectMapper) in.readObject();
    }
    assertThat(copy.readValue("{\"from\":1,\"to\":2}", Range.class)).isEqualTo(new Range(1, 2));
  }

  /** The value read, or the failure's type and its innermost message. */
  private static Object outcome(ObjectMapper mapper, String json, Class<?> type) {
    try {
      return mapper.readValue(json, type);
    } catch (RuntimeException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      return List.of(e.getClass(), root.getClass(), String.valueOf(root.getMessage()));
    }
  }
}
