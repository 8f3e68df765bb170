package dev.baton.internal.agent;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One RFC 6902 JSON Patch operation, as an agent streams it in {@code customPatch}: {@code {"op":
 * "replace", "path": "/counter", "value": 2}}, with {@code "from"} for {@code move} and {@code
 * copy}.
 *
 * <p>{@code value} is always written, as Genkit does: an operation without a value ({@code remove},
 * {@code move}, {@code copy}) carries a JSON null node and is written as {@code "value": null}, and
 * an explicit JSON null value survives a round trip. {@code from} is omitted when null. Paths are
 * JSON Pointers ({@code ""} is the whole document; {@code ~0} escapes {@code ~} and {@code ~1}
 * escapes {@code /}); they are checked when the operation is applied, not here.
 *
 * <p>Reading an operation with an unknown {@code op}, without {@code op} or {@code path}, or a
 * {@code move} or {@code copy} without {@code from}, fails with {@link Status#INVALID_ARGUMENT}.
 *
 * <p>Instances are immutable in practice: the value tree is copied on construction, and the tree
 * returned by {@link #value()} must not be modified. They are safe to share between threads.
 *
 * @param op the operation
 * @param path the JSON Pointer the operation targets
 * @param value the operand of {@code add}, {@code replace} and {@code test}; a JSON null node for
 *     the other operations
 * @param from the source pointer of {@code move} and {@code copy}; null for the other operations
 */
public record JsonPatchOperation(
    Op op,
    String path,
    // The mapper omits only Java nulls today; ALWAYS keeps "value": null on the wire even if the
    // shared inclusion policy ever widens to NON_EMPTY, which would drop a JSON null node.
    @JsonInclude(JsonInclude.Include.ALWAYS) JsonNode value,
    @Nullable String from) {

  /** The RFC 6902 operations, written by their lower-case wire names. */
  public enum Op {
    ADD("add"),
    REMOVE("remove"),
    REPLACE("replace"),
    MOVE("move"),
    COPY("copy"),
    TEST("test");

    private final String wireName;

    Op(String wireName) {
      this.wireName = wireName;
    }

    /** The name in JSON, such as {@code replace}. */
    @JsonValue
    public String wireName() {
      return wireName;
    }

    /**
     * The operation with this wire name (case-sensitive, as in RFC 6902); any other name is {@link
     * Status#INVALID_ARGUMENT}.
     */
    @JsonCreator
    public static Op fromWireName(String wireName) {
      for (Op op : values()) {
        if (op.wireName.equals(wireName)) {
          return op;
        }
      }
      throw BatonException.invalidArgument("unknown JSON patch op \"%s\"", wireName);
    }
  }

  /**
   * Checks that {@code move} and {@code copy} name a source and copies the value tree.
   *
   * @throws BatonException {@link Status#INVALID_ARGUMENT} for a {@code move} or {@code copy}
   *     without {@code from}
   */
  public JsonPatchOperation {
    if ((op == Op.MOVE || op == Op.COPY) && from == null) {
      throw BatonException.invalidArgument(
          "JSON patch %s to \"%s\" needs a from pointer", op.wireName(), path);
    }
    value = Json.copy(value);
  }

  /** Adds {@code value} at {@code path}, inserting into an array or setting an object member. */
  public static JsonPatchOperation add(String path, JsonNode value) {
    return new JsonPatchOperation(Op.ADD, path, value, null);
  }

  /** Removes the value at {@code path}. */
  public static JsonPatchOperation remove(String path) {
    return new JsonPatchOperation(Op.REMOVE, path, Json.nodes().nullNode(), null);
  }

  /** Replaces the value at {@code path}; {@code ""} replaces the whole document. */
  public static JsonPatchOperation replace(String path, JsonNode value) {
    return new JsonPatchOperation(Op.REPLACE, path, value, null);
  }

  /** Moves the value at {@code from} to {@code path}. */
  public static JsonPatchOperation move(String from, String path) {
    return new JsonPatchOperation(Op.MOVE, path, Json.nodes().nullNode(), from);
  }

  /** Copies the value at {@code from} to {@code path}. */
  public static JsonPatchOperation copy(String from, String path) {
    return new JsonPatchOperation(Op.COPY, path, Json.nodes().nullNode(), from);
  }

  /** Checks that the value at {@code path} equals {@code value}, comparing numbers by value. */
  public static JsonPatchOperation test(String path, JsonNode value) {
    return new JsonPatchOperation(Op.TEST, path, value, null);
  }

  /**
   * The reader's entry point: JSON omits {@code value} for some operations and Jackson passes
   * absent fields as Java nulls, which the canonical constructor does not accept.
   */
  @JsonCreator
  static JsonPatchOperation fromJson(
      @JsonProperty("op") @Nullable Op op,
      @JsonProperty("path") @Nullable String path,
      @JsonProperty("value") @Nullable JsonNode value,
      @JsonProperty("from") @Nullable String from) {
    if (op == null || path == null) {
      throw BatonException.invalidArgument("a JSON patch operation needs op and path");
    }
    return new JsonPatchOperation(op, path, value == null ? Json.nodes().nullNode() : value, from);
  }

  /**
   * Reads a JSON Patch (an array of operations).
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when it is not an array of valid operations
   */
  public static List<JsonPatchOperation> listOf(JsonNode patch) {
    if (!patch.isArray()) {
      throw BatonException.invalidArgument("a JSON Patch must be an array of operations");
    }
    List<JsonPatchOperation> operations = new ArrayList<>(patch.size());
    for (JsonNode operation : patch) {
      operations.add(Json.convert(operation, JsonPatchOperation.class));
    }
    return operations;
  }
}
