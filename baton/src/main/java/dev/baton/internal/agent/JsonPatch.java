package dev.baton.internal.agent;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * RFC 6902 JSON Patch as agents use it to stream custom state: {@link #diff} computes the patch
 * between the last state sent and the current one, and {@link #apply} replays it on a client's
 * copy.
 *
 * <p>Both methods are pure functions of their arguments; neither mutates its inputs, so they are
 * safe to call from any thread.
 */
public final class JsonPatch {
  private JsonPatch() {}

  /**
   * The operations that turn {@code from} into {@code to}, or an empty list when the two are equal
   * as JSON (numbers compare by value: {@code 1} equals {@code 1.0}).
   *
   * <ul>
   *   <li>Two objects are compared member by member, visiting the union of their keys in sorted
   *       ({@link String#compareTo}) order: a key only in {@code to} is an {@code add}, a key only
   *       in {@code from} a {@code remove}, and a shared key is compared recursively.
   *   <li>Two arrays are compared by index: shared indexes recursively, then each extra element of
   *       {@code to} is an {@code add} at {@code <array>/-}, in order, and each extra element of
   *       {@code from} a {@code remove}, highest index first so the indexes stay valid.
   *   <li>Anything else that differs (a type change, a different primitive) is a {@code replace} of
   *       that value; at the root this is a single {@code replace} at {@code ""} of the whole
   *       document.
   * </ul>
   *
   * <p>Object keys in paths are escaped ({@code ~} as {@code ~0}, {@code /} as {@code ~1}).
   */
  public static List<JsonPatchOperation> diff(JsonNode from, JsonNode to) {
    List<JsonPatchOperation> ops = new ArrayList<>();
    diff("", from, to, ops);
    return List.copyOf(ops);
  }

  private static void diff(String path, JsonNode from, JsonNode to, List<JsonPatchOperation> ops) {
    if (Json.jsonEquals(from, to)) {
      return;
    }
    if (from.isObject() && to.isObject()) {
      TreeSet<String> keys = new TreeSet<>();
      from.properties().forEach(entry -> keys.add(entry.getKey()));
      to.properties().forEach(entry -> keys.add(entry.getKey()));
      for (String key : keys) {
        String child = path + "/" + escape(key);
        JsonNode before = from.get(key);
        JsonNode after = to.get(key);
        if (before == null) {
          ops.add(JsonPatchOperation.add(child, after));
        } else if (after == null) {
          ops.add(JsonPatchOperation.remove(child));
        } else {
          diff(child, before, after, ops);
        }
      }
    } else if (from.isArray() && to.isArray()) {
      int shared = Math.min(from.size(), to.size());
      for (int i = 0; i < shared; i++) {
        diff(path + "/" + i, from.get(i), to.get(i), ops);
      }
      for (int i = shared; i < to.size(); i++) {
        ops.add(JsonPatchOperation.add(path + "/-", to.get(i)));
      }
      for (int i = from.size() - 1; i >= shared; i--) {
        ops.add(JsonPatchOperation.remove(path + "/" + i));
      }
    } else {
      ops.add(JsonPatchOperation.replace(path, to));
    }
  }

  /**
   * A new document: {@code document} with {@code ops} applied in order. Neither the document nor
   * the operations' values are modified, and the result shares no mutable tree with them.
   *
   * <p>The applier is lenient where Genkit's is:
   *
   * <ul>
   *   <li>{@code add} (and the target of {@code move} and {@code copy}) creates missing parents as
   *       empty objects; a JSON null or missing document counts as a missing root. An array index
   *       inserts before that index, and {@code -} appends.
   *   <li>{@code remove} and {@code replace} of a member that does not exist do nothing, also when
   *       its parent does not exist; {@code replace} never creates a member.
   *   <li>{@code add} or {@code replace} at {@code ""} replace the whole document.
   * </ul>
   *
   * <p>Failures, which abandon the whole patch:
   *
   * <ul>
   *   <li>a {@code test} whose path is missing or whose value differs (numbers compare by value) is
   *       {@link Status#FAILED_PRECONDITION}, because the patch was computed against another state;
   *   <li>a malformed pointer (not empty and not starting with {@code /}, or a {@code ~} not
   *       followed by {@code 0} or {@code 1}), {@code remove} of {@code ""}, an {@code add} through
   *       a primitive or at an array index that is not {@code -} or in {@code 0..size}, a {@code
   *       move} or {@code copy} from a missing value, and a {@code move} into its own child are
   *       {@link Status#INVALID_ARGUMENT}. Unknown op names never get here: reading them fails (see
   *       {@link JsonPatchOperation.Op#fromWireName}).
   * </ul>
   */
  public static JsonNode apply(JsonNode document, List<JsonPatchOperation> ops) {
    JsonNode result = Json.copy(document);
    for (JsonPatchOperation op : ops) {
      result = apply(result, op);
    }
    return result;
  }

  /** Applies one operation to {@code root}, which it may mutate, and returns the new root. */
  private static JsonNode apply(JsonNode root, JsonPatchOperation op) {
    List<String> path = parse(op.path());
    return switch (op.op()) {
      case ADD -> add(root, path, Json.copy(op.value()), op);
      case REMOVE -> {
        if (path.isEmpty()) {
          throw invalid(op, "cannot remove the whole document");
        }
        remove(root, path);
        yield root;
      }
      case REPLACE -> replace(root, path, Json.copy(op.value()));
      case MOVE -> {
        List<String> from = source(op);
        if (path.size() > from.size() && path.subList(0, from.size()).equals(from)) {
          throw invalid(op, "cannot move a value into its own child");
        }
        JsonNode value = sourceValue(root, from, op);
        if (from.equals(path)) {
          yield root;
        }
        remove(root, from);
        yield add(root, path, value, op);
      }
      case COPY -> add(root, path, Json.copy(sourceValue(root, source(op), op)), op);
      case TEST -> {
        JsonNode actual = find(root, path);
        if (actual == null || !Json.jsonEquals(actual, op.value())) {
          throw BatonException.failedPrecondition(
              "JSON patch test failed at \"%s\": %s",
              op.path(), actual == null ? "nothing is there" : "the value differs");
        }
        yield root;
      }
    };
  }

  private static JsonNode add(
      JsonNode root, List<String> path, JsonNode value, JsonPatchOperation op) {
    if (path.isEmpty()) {
      return value;
    }
    JsonNode result = root.isNull() || root.isMissingNode() ? Json.object() : root;
    JsonNode parent = result;
    for (String token : path.subList(0, path.size() - 1)) {
      JsonNode next = child(parent, token);
      if (next == null) {
        if (!(parent instanceof ObjectNode object)) {
          throw invalid(op, "cannot create \"" + token + "\" outside an object");
        }
        next = object.putObject(token);
      }
      parent = next;
    }
    String last = path.getLast();
    if (parent instanceof ObjectNode object) {
      object.set(last, value);
    } else if (parent instanceof ArrayNode array) {
      int index = last.equals("-") ? array.size() : index(last);
      if (index < 0 || index > array.size()) {
        throw invalid(op, "array index \"" + last + "\" is out of range");
      }
      array.insert(index, value);
    } else {
      throw invalid(op, "the parent is not a container");
    }
    return result;
  }

  private static void remove(JsonNode root, List<String> path) {
    JsonNode parent = find(root, path.subList(0, path.size() - 1));
    String last = path.getLast();
    if (parent instanceof ObjectNode object) {
      object.remove(last);
    } else if (parent instanceof ArrayNode array && child(array, last) != null) {
      array.remove(index(last));
    }
  }

  private static JsonNode replace(JsonNode root, List<String> path, JsonNode value) {
    if (path.isEmpty()) {
      return value;
    }
    JsonNode parent = find(root, path.subList(0, path.size() - 1));
    String last = path.getLast();
    if (parent instanceof ObjectNode object && object.has(last)) {
      object.set(last, value);
    } else if (parent instanceof ArrayNode array && child(array, last) != null) {
      array.set(index(last), value);
    }
    return root;
  }

  /** The source pointer of a move or copy, which the record guarantees is present. */
  private static List<String> source(JsonPatchOperation op) {
    return parse(Objects.requireNonNull(op.from()));
  }

  private static JsonNode sourceValue(JsonNode root, List<String> from, JsonPatchOperation op) {
    JsonNode value = find(root, from);
    if (value == null) {
      throw invalid(op, "nothing at from \"" + op.from() + "\"");
    }
    return value;
  }

  /** The node at {@code path}, or null when any step of it is missing. */
  private static @Nullable JsonNode find(JsonNode root, List<String> path) {
    JsonNode current = root;
    for (String token : path) {
      current = child(current, token);
      if (current == null) {
        return null;
      }
    }
    return current;
  }

  /** The member or in-range element {@code token} names; null for anything else. */
  private static @Nullable JsonNode child(JsonNode node, String token) {
    if (node instanceof ObjectNode object) {
      return object.get(token);
    }
    if (node instanceof ArrayNode array) {
      int index = index(token);
      return index >= 0 && index < array.size() ? array.get(index) : null;
    }
    return null;
  }

  /** An RFC 6901 array index (digits, no leading zero), or -1 for any other token. */
  private static int index(String token) {
    if (token.isEmpty() || token.length() > 9 || (token.length() > 1 && token.charAt(0) == '0')) {
      return -1;
    }
    for (int i = 0; i < token.length(); i++) {
      if (token.charAt(i) < '0' || token.charAt(i) > '9') {
        return -1;
      }
    }
    return Integer.parseInt(token);
  }

  /** The unescaped reference tokens of an RFC 6901 pointer; {@code ""} is the empty list. */
  private static List<String> parse(String pointer) {
    if (pointer.isEmpty()) {
      return List.of();
    }
    if (pointer.charAt(0) != '/') {
      throw BatonException.invalidArgument(
          "JSON pointer \"%s\" must be empty or start with /", pointer);
    }
    List<String> tokens = new ArrayList<>();
    StringBuilder token = new StringBuilder();
    for (int i = 1; i < pointer.length(); i++) {
      char c = pointer.charAt(i);
      if (c == '/') {
        tokens.add(token.toString());
        token.setLength(0);
      } else if (c != '~') {
        token.append(c);
      } else if (i + 1 < pointer.length() && pointer.charAt(i + 1) == '0') {
        token.append('~');
        i++;
      } else if (i + 1 < pointer.length() && pointer.charAt(i + 1) == '1') {
        token.append('/');
        i++;
      } else {
        throw BatonException.invalidArgument(
            "JSON pointer \"%s\" has a ~ not followed by 0 or 1", pointer);
      }
    }
    tokens.add(token.toString());
    return tokens;
  }

  /** An object key as a pointer token; {@code ~} first, so the {@code ~} of {@code ~1} stays. */
  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }

  private static BatonException invalid(JsonPatchOperation op, String why) {
    return BatonException.invalidArgument(
        "JSON patch %s at \"%s\": %s", op.op().wireName(), op.path(), why);
  }
}
