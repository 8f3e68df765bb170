package dev.baton;

import dev.baton.core.Json;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ContainerNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Mutates valid JSON as a careless or hostile client would: values of the wrong type, missing and
 * unknown fields, hostile strings, huge numbers, deep nesting (past {@link Json#MAX_DEPTH} too),
 * and, on the text, truncation and stray characters.
 */
final class JsonMutator {
  /** How deep the mutator looks for a node to change; deeper values are changed whole. */
  private static final int MAX_WALK_DEPTH = 40;

  /** Characters that break JSON text, or its encoding. */
  private static final String STRAY = "{}[]\",:\\\u0000\ud800 x";

  private final Random random;
  private final HostileIds ids;

  JsonMutator(Random random, HostileIds ids) {
    this.random = random;
    this.ids = ids;
  }

  /** A changed copy of {@code valid}: one to three edits of its tree. */
  JsonNode mutate(JsonNode valid) {
    JsonNode root = valid.deepCopy();
    for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
      root = edit(root);
    }
    return root;
  }

  /** {@code valid} written out, with its text cut short or a character inserted or dropped. */
  String mutateText(JsonNode valid) {
    String text = Json.write(valid);
    int at = random.nextInt(text.length());
    return switch (random.nextInt(4)) {
      case 0 -> text.substring(0, at);
      case 1 -> text.substring(0, at) + text.substring(at + 1);
      case 2 ->
          text.substring(0, at) + STRAY.charAt(random.nextInt(STRAY.length())) + text.substring(at);
      default -> text + text.substring(at);
    };
  }

  /** A place in the tree: a field of an object, an element of an array, or the root. */
  private record Slot(ContainerNode<?> parent, String field, int index, JsonNode node) {}

  private JsonNode edit(JsonNode root) {
    List<Slot> slots = new ArrayList<>();
    collect(root, null, null, -1, 0, slots);
    Slot slot = slots.get(random.nextInt(slots.size()));
    int operation = random.nextInt(8);
    if (slot.parent() == null) {
      if (operation == 0) {
        return value();
      }
      if (root instanceof ObjectNode object) {
        object.set(unknownField(), value());
      }
      return root;
    }
    switch (operation) {
      case 0, 1 -> replace(slot, value());
      case 2 -> remove(slot);
      case 3 -> {
        if (slot.node() instanceof ObjectNode object) {
          object.set(unknownField(), value());
        } else if (slot.node() instanceof ArrayNode array) {
          array.add(array.isEmpty() ? value() : array.get(0).deepCopy());
        } else {
          replace(slot, retyped(slot.node()));
        }
      }
      case 4 -> replace(slot, retyped(slot.node()));
      case 5 -> replace(slot, Json.nodes().stringNode(string()));
      case 6 -> replace(slot, Json.nodes().nullNode());
      default -> replace(slot, nested(slot.node()));
    }
    return root;
  }

  private void collect(
      JsonNode node,
      ContainerNode<?> parent,
      String field,
      int index,
      int depth,
      List<Slot> slots) {
    slots.add(new Slot(parent, field, index, node));
    if (depth >= MAX_WALK_DEPTH) {
      return;
    }
    if (node instanceof ObjectNode object) {
      for (var entry : object.properties()) {
        collect(entry.getValue(), object, entry.getKey(), -1, depth + 1, slots);
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        collect(array.get(i), array, null, i, depth + 1, slots);
      }
    }
  }

  private static void replace(Slot slot, JsonNode value) {
    if (slot.parent() instanceof ObjectNode object) {
      object.set(slot.field(), value);
    } else if (slot.parent() instanceof ArrayNode array) {
      array.set(slot.index(), value);
    }
  }

  private static void remove(Slot slot) {
    if (slot.parent() instanceof ObjectNode object) {
      object.remove(slot.field());
    } else if (slot.parent() instanceof ArrayNode array) {
      array.remove(slot.index());
    }
  }

  private String unknownField() {
    return switch (random.nextInt(4)) {
      case 0 -> "bogus";
      case 1 -> string();
      case 2 -> "Message";
      default -> "x" + random.nextInt(100);
    };
  }

  /** The same content as another type: text for a number, a number for text, and so on. */
  private JsonNode retyped(JsonNode node) {
    if (node.isString()) {
      String text = node.asString();
      return random.nextBoolean()
          ? Json.nodes().numberNode(text.length())
          : Json.nodes().arrayNode().add(text);
    }
    if (node.isNumber() || node.isBoolean()) {
      return Json.nodes().stringNode(node.asString());
    }
    if (node.isArray()) {
      ObjectNode object = Json.object();
      for (int i = 0; i < node.size(); i++) {
        object.set(String.valueOf(i), node.get(i).deepCopy());
      }
      return object;
    }
    if (node.isObject()) {
      ArrayNode array = Json.nodes().arrayNode();
      node.values().forEach(v -> array.add(v.deepCopy()));
      return array;
    }
    return Json.nodes().booleanNode(true);
  }

  /** {@code node} wrapped in arrays or objects, sometimes deeper than {@link Json#MAX_DEPTH}. */
  private JsonNode nested(JsonNode node) {
    int depth =
        random.nextInt(8) == 0 ? Json.MAX_DEPTH - 5 + random.nextInt(50) : 1 + random.nextInt(30);
    JsonNode value = node;
    boolean arrays = random.nextBoolean();
    for (int i = 0; i < depth; i++) {
      if (arrays) {
        value = Json.nodes().arrayNode().add(value);
      } else {
        ObjectNode object = Json.object();
        object.set("k", value);
        value = object;
      }
    }
    return value;
  }

  /** A value of any type, hostile or plain. */
  JsonNode value() {
    return switch (random.nextInt(11)) {
      case 0 -> Json.nodes().nullNode();
      case 1 -> Json.nodes().booleanNode(random.nextBoolean());
      case 2 -> Json.nodes().numberNode(random.nextBoolean() ? -1 : Long.MAX_VALUE);
      case 3 -> Json.nodes().numberNode(new BigInteger("9".repeat(1 + random.nextInt(400))));
      case 4 -> Json.nodes().numberNode(random.nextBoolean() ? 1e308 : -0.0);
      case 5, 6 -> Json.nodes().stringNode(string());
      case 7 -> Json.object();
      case 8 -> Json.nodes().arrayNode();
      case 9 -> nested(Json.nodes().stringNode(string()));
      default -> {
        ObjectNode object = Json.object();
        object.put(string(), string());
        object.putArray("list").add(random.nextInt()).addNull();
        yield object;
      }
    };
  }

  /** A string a careless client might send: empty, huge, control characters, bad Unicode, IDs. */
  String string() {
    return switch (random.nextInt(8)) {
      case 0 -> "";
      case 1 -> "x".repeat(1 + random.nextInt(5_000));
      case 2 -> "\u0000\u0007\r\n";
      case 3 -> "\ud800" + (random.nextBoolean() ? "" : "x\udc00");
      case 4 -> "日本語 😀 \u202e";
      case 5 -> "user";
      case 6 -> "null";
      default -> ids.next();
    };
  }
}
