package dev.baton.core;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.type.LogicalType;

/**
 * The JSON mapper Baton reads and writes Genkit's JSON with, and helpers around it. The
 * application's own types (tool, flow and prompt inputs and outputs, custom session state) may be
 * read and written by a mapper of the application's instead: see {@link
 * dev.baton.Baton.Builder#jsonMapper}.
 *
 * <p>Policy, chosen for interoperability with Genkit JS and Go:
 *
 * <ul>
 *   <li>Null fields are omitted; empty collections and objects are written, because several Genkit
 *       payloads distinguish {@code []} or {@code {}} from an absent field.
 *   <li>Unknown fields are ignored when reading, so payloads from a newer Genkit still parse. Where
 *       Genkit's protocol requires a strict shape (an agent's init), the boundary validates against
 *       a JSON schema instead. An enum value Baton does not know reads as the enum's declared
 *       default ({@code unknown} for finish reasons).
 *   <li>Times are RFC 3339 strings in UTC ({@code 2026-11-29T21:07:38.860Z}); offsets are accepted
 *       on read.
 * </ul>
 *
 * <p>Every failure to read input becomes a {@link Status#INVALID_ARGUMENT} error that names the
 * problem, never a raw Jackson exception. The mapper is immutable and thread-safe.
 */
public final class Json {
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .changeDefaultPropertyInclusion(
              incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(EnumFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .addModule(new SpreadCreators())
          // Records serialise their components; isX() helpers (isEmpty, isTerminal) are not data.
          .changeDefaultVisibility(v -> v.withIsGetterVisibility(JsonAutoDetect.Visibility.NONE))
          // A string field reads only a string: {"sessionId": 5} is an error, not session "5".
          .withCoercionConfig(
              LogicalType.Textual,
              config -> {
                config.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
                config.setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
                config.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
              })
          // Go writes an unset enum as "": it reads as absent, as a missing field does. A number
          // is no enum value at all, not the index of one.
          .withCoercionConfig(
              LogicalType.Enum,
              config -> {
                config.setCoercion(CoercionInputShape.EmptyString, CoercionAction.AsNull);
                config.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
              })
          .build();

  /**
   * How deep a JSON value may nest: Jackson's limit for parsed input, applied as well to trees
   * built in memory wherever Baton copies, converts or writes them, so a runaway tree is an {@link
   * Status#INVALID_ARGUMENT} error rather than a {@link StackOverflowError}.
   */
  public static final int MAX_DEPTH = StreamReadConstraints.DEFAULT_MAX_DEPTH;

  private Json() {}

  /** The shared mapper. It is immutable; derive a changed copy with {@code rebuild()} if needed. */
  public static JsonMapper mapper() {
    return MAPPER;
  }

  /** A factory for building trees by hand. */
  public static JsonNodeFactory nodes() {
    return MAPPER.getNodeFactory();
  }

  /** A new empty object node. */
  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** Parses JSON text; malformed text is {@link Status#INVALID_ARGUMENT}. */
  public static JsonNode parse(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JacksonException e) {
      throw invalid("malformed JSON", e);
    }
  }

  /** Parses JSON bytes; malformed input is {@link Status#INVALID_ARGUMENT}. */
  public static JsonNode parse(byte[] bytes) {
    try {
      return MAPPER.readTree(bytes);
    } catch (JacksonException e) {
      throw invalid("malformed JSON", e);
    }
  }

  /**
   * Reads JSON text as a type; malformed or mismatched input is {@link Status#INVALID_ARGUMENT}.
   */
  public static <T> T read(String text, Class<T> type) {
    try {
      return MAPPER.readValue(text, type);
    } catch (JacksonException e) {
      throw invalid("cannot read " + type.getSimpleName(), e);
    }
  }

  /**
   * Converts a tree to a type; a mismatch, or a tree nested deeper than {@link #MAX_DEPTH}, is
   * {@link Status#INVALID_ARGUMENT}.
   */
  public static <T> T convert(JsonNode node, Class<T> type) {
    checkDepth(node, 1);
    try {
      return MAPPER.treeToValue(node, type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw invalid("cannot read " + type.getSimpleName(), e);
    }
  }

  /** Converts a tree to a generic type; a mismatch is {@link Status#INVALID_ARGUMENT}. */
  public static <T> T convert(JsonNode node, TypeReference<T> type) {
    return convert(MAPPER, node, MAPPER.getTypeFactory().constructType(type));
  }

  /** Converts a tree to a reflected type; a mismatch is {@link Status#INVALID_ARGUMENT}. */
  // The caller states T by what it assigns the result to, as with Jackson's readValue(JavaType).
  @SuppressWarnings("TypeParameterUnusedInFormals")
  public static <T> T convert(JsonNode node, Type type) {
    return convert(MAPPER, node, type);
  }

  /**
   * Converts a tree to a reflected type with another mapper, such as the application's (see {@link
   * dev.baton.Baton.Builder#jsonMapper}); errors are reported as by {@link #convert(JsonNode,
   * Type)}.
   */
  @SuppressWarnings("TypeParameterUnusedInFormals") // as above
  public static <T> T convert(JsonMapper mapper, JsonNode node, Type type) {
    return convert(mapper, node, mapper.getTypeFactory().constructType(type));
  }

  @SuppressWarnings("TypeParameterUnusedInFormals") // as above
  private static <T> T convert(JsonMapper mapper, JsonNode node, JavaType type) {
    checkDepth(node, 1);
    try {
      return mapper.treeToValue(node, type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw invalid("cannot read " + type.getRawClass().getSimpleName(), e);
    }
  }

  /**
   * A value as a JSON tree. A Java null becomes a JSON null node; a tree is returned as it is.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} if the value nests deeper than {@link
   *     #MAX_DEPTH}
   */
  public static JsonNode toTree(@Nullable Object value) {
    return toTree(MAPPER, value);
  }

  /**
   * A value as a JSON tree written by another mapper, such as the application's (see {@link
   * dev.baton.Baton.Builder#jsonMapper}); otherwise as {@link #toTree(Object)}.
   */
  public static JsonNode toTree(JsonMapper mapper, @Nullable Object value) {
    if (value == null) {
      return nodes().nullNode();
    }
    if (value instanceof JsonNode node) {
      return node;
    }
    JsonNode tree = bounded(() -> mapper.valueToTree(value));
    checkDepth(tree, 1);
    return tree;
  }

  /** A value as compact JSON text. */
  public static String write(@Nullable Object value) {
    return bounded(() -> MAPPER.writeValueAsString(value));
  }

  /**
   * A value as compact UTF-8 JSON bytes. A lone surrogate in a string, which UTF-8 cannot encode,
   * is written as a <code>&#92;uD800</code> escape and so reads back as it was; encoding the text
   * of {@link #write} would put {@code ?} in its place.
   */
  public static byte[] writeBytes(@Nullable Object value) {
    return bounded(() -> MAPPER.writeValueAsBytes(value));
  }

  /** A value as JSON text indented by two spaces. */
  public static String writePretty(@Nullable Object value) {
    return bounded(() -> MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value));
  }

  /**
   * A value as UTF-8 JSON bytes indented by two spaces; a lone surrogate is escaped as by {@link
   * #writeBytes}.
   */
  public static byte[] writePrettyBytes(@Nullable Object value) {
    return bounded(() -> MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(value));
  }

  /**
   * A deep copy of a value of the given type, made by a JSON round trip, so the copy shares no
   * mutable state with the original. Use it for values whose type Baton does not control, such as
   * an agent's custom state.
   */
  public static <T> T deepCopy(T value, Class<T> type) {
    return bounded(() -> MAPPER.convertValue(MAPPER.valueToTree(value), type));
  }

  /**
   * A deep copy of a tree; value nodes are immutable and returned as they are.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} if the tree nests deeper than {@link
   *     #MAX_DEPTH}
   */
  public static JsonNode copy(JsonNode node) {
    return copy(node, 1);
  }

  private static JsonNode copy(JsonNode node, int depth) {
    if (!node.isContainer()) {
      return node;
    }
    if (depth > MAX_DEPTH) {
      throw tooDeep();
    }
    if (node instanceof ObjectNode object) {
      // Sized for its fields: the factory's maps start at 16 slots, and most objects a
      // conversation copies (tool inputs and outputs, metadata) have a few.
      ObjectNode copy =
          new ObjectNode(nodes(), LinkedHashMap.newLinkedHashMap(Math.max(1, object.size())));
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        copy.set(field.getKey(), copy(field.getValue(), depth + 1));
      }
      return copy;
    }
    ArrayNode copy = nodes().arrayNode(node.size());
    for (JsonNode element : node) {
      copy.add(copy(element, depth + 1));
    }
    return copy;
  }

  /** Fails a tree that nests deeper than {@link #MAX_DEPTH}; it looks no deeper than that. */
  private static void checkDepth(JsonNode node, int depth) {
    if (!node.isContainer()) {
      return;
    }
    if (depth > MAX_DEPTH) {
      throw tooDeep();
    }
    for (JsonNode child : node) {
      checkDepth(child, depth + 1);
    }
  }

  /**
   * Runs a write, turning a value too deep for the writer into the error a copy gives. Jackson's
   * text writers stop at their nesting limit, but its tree builder has none, so a runaway value
   * overflows the stack there. The overflow unwinds a serialiser that holds no lock and leaves
   * nothing half-made but the discarded tree, so it is safe to report as the value's own fault.
   */
  private static <T> T bounded(Supplier<T> write) {
    try {
      return write.get();
    } catch (StreamConstraintsException | StackOverflowError e) {
      throw tooDeep();
    }
  }

  private static BatonException tooDeep() {
    return BatonException.invalidArgument(
        "the JSON value is nested deeper than %d levels", MAX_DEPTH);
  }

  /** A copy of a tree without one top-level field; the tree itself is returned if it lacks it. */
  public static JsonNode withoutField(JsonNode node, String field) {
    if (!(node instanceof ObjectNode object) || !object.has(field)) {
      return copy(node);
    }
    ObjectNode result = (ObjectNode) copy(object);
    result.remove(field);
    return result;
  }

  /**
   * Whether two trees are equal as JSON values, treating numbers by value ({@code 1} equals {@code
   * 1.0}).
   */
  public static boolean jsonEquals(@Nullable JsonNode a, @Nullable JsonNode b) {
    if (a == null || b == null) {
      return isNullish(a) && isNullish(b);
    }
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (var entry : a.properties()) {
        if (!b.has(entry.getKey()) || !jsonEquals(entry.getValue(), b.get(entry.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!jsonEquals(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  private static boolean isNullish(@Nullable JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode();
  }

  private static BatonException invalid(String what, Exception cause) {
    if (cause instanceof StreamConstraintsException) {
      return tooDeep();
    }
    return new BatonException(
        Status.INVALID_ARGUMENT, what + ": " + describe(cause), null, true, cause);
  }

  /**
   * What went wrong, in the terms of the JSON a client sent: where (a JSON Pointer) and what was
   * expected there. The exception's own message names Java types and, for a failed constructor, the
   * code that failed, which must not reach a remote client; only a message of Baton's own (an
   * {@link IllegalArgumentException} or {@link BatonException} thrown while building a value) and a
   * syntax error are passed on.
   */
  private static String describe(Exception cause) {
    if (!(cause instanceof JacksonException error)) {
      return "invalid value";
    }
    StringBuilder pointer = new StringBuilder();
    for (JacksonException.Reference reference : error.getPath()) {
      pointer.append('/');
      if (reference.getPropertyName() != null) {
        pointer.append(reference.getPropertyName().replace("~", "~0").replace("/", "~1"));
      } else if (reference.getIndex() >= 0) {
        pointer.append(reference.getIndex());
      }
    }
    String at = pointer.isEmpty() ? "" : " at " + pointer;
    if (error instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      return "expected " + kindOf(mismatch.getTargetType()) + at;
    }
    Throwable reason = error.getCause();
    if ((reason instanceof IllegalArgumentException || reason instanceof BatonException)
        && reason.getMessage() != null) {
      return "invalid value" + at + ": " + reason.getMessage();
    }
    if (error instanceof StreamReadException && error.getOriginalMessage() != null) {
      return error.getOriginalMessage();
    }
    return "invalid value" + at;
  }

  /** How a Java type reads in JSON, for error messages. */
  private static String kindOf(Class<?> type) {
    if (CharSequence.class.isAssignableFrom(type)
        || type == char.class
        || type == Character.class) {
      return "a string";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (Number.class.isAssignableFrom(type) || (type.isPrimitive() && type != void.class)) {
      return "a number";
    }
    if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "an array";
    }
    if (type.isEnum()) {
      return "one of " + toTree(List.of(type.getEnumConstants()));
    }
    return "an object";
  }
}
