package dev.baton.server;

import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.server.internal.protocol.RequestBody;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Request bodies for {@link ServerFuzzTest}, generated from a seed: malformed JSON, wrong types,
 * huge and deeply nested values, unknown fields, bad IDs and bad init combinations, each with the
 * outcomes Genkit's protocol allows for it.
 */
final class FuzzCases {
  /** The server's body limit in the fuzz run. */
  static final int MAX_BYTES = 64 * 1024;

  /**
   * One request and what may come back.
   *
   * @param kind what the case exercises, for the summary
   * @param path the route
   * @param body the raw body
   * @param allowed the statuses the answer may carry; {@link Status#OK} for a result
   * @param beforeTheAction whether a refusal comes before the action runs (a body that cannot be
   *     read), and so is an HTTP error even in a stream
   */
  record Case(
      String kind, String path, String body, Set<Status> allowed, boolean beforeTheAction) {}

  private final Random random;
  private final String reserved;

  FuzzCases(long seed) {
    this.random = new Random(seed);
    this.reserved = "p" + "0123456789abcdef0123456789abcdef" + "~";
  }

  Case next() {
    return switch (random.nextInt(10)) {
      case 0 -> malformed();
      case 1 -> wrongTopLevel();
      case 2 -> wrongTypes();
      case 3 -> huge();
      case 4 -> deep();
      case 5 -> unknownFields();
      case 6 -> badIds();
      case 7 -> badInit();
      case 8 -> companion();
      default -> flow();
    };
  }

  // ---- valid material -------------------------------------------------------------------------

  private ObjectNode message(String role, String text) {
    ObjectNode message = Json.object().put("role", role);
    message.putArray("content").addObject().put("text", text);
    return message;
  }

  private ObjectNode input() {
    ObjectNode input = Json.object();
    input.set("message", message("user", word()));
    return input;
  }

  private ObjectNode envelope(JsonNode data) {
    ObjectNode body = Json.object();
    body.set("data", data);
    return body;
  }

  private String agentPath() {
    return random.nextBoolean() ? "/agents/chat" : "/agents/stateless";
  }

  private String word() {
    String[] words = {"hi", "tides", "", "ünïcødé", "😀", "a\nb", "\"quoted\"", "<b>", "null"};
    return words[random.nextInt(words.length)];
  }

  private JsonNode randomValue(int depth) {
    return switch (random.nextInt(depth > 3 ? 6 : 8)) {
      case 0 -> Json.nodes().nullNode();
      case 1 -> Json.nodes().booleanNode(random.nextBoolean());
      case 2 -> Json.nodes().numberNode(random.nextLong());
      case 3 -> Json.nodes().numberNode(random.nextDouble() * 1e300);
      case 4 -> Json.nodes().stringNode(word());
      case 5 -> Json.nodes().stringNode(String.valueOf((char) random.nextInt(0x20)));
      case 6 -> {
        ArrayNode array = Json.nodes().arrayNode();
        for (int i = random.nextInt(4); i > 0; i--) {
          array.add(randomValue(depth + 1));
        }
        yield array;
      }
      default -> {
        ObjectNode object = Json.object();
        for (int i = random.nextInt(4); i > 0; i--) {
          object.set(word() + i, randomValue(depth + 1));
        }
        yield object;
      }
    };
  }

  // ---- cases ----------------------------------------------------------------------------------

  private Case malformed() {
    String valid = Json.write(envelope(input()));
    String body =
        switch (random.nextInt(5)) {
          case 0 -> valid.substring(0, 1 + random.nextInt(valid.length() - 1));
          case 1 -> valid.replaceFirst(":", "");
          case 2 -> valid + "}";
          case 3 -> "{\"data\": {\"message\": }";
          default -> {
            StringBuilder garbage = new StringBuilder();
            for (int i = 1 + random.nextInt(40); i > 0; i--) {
              garbage.append((char) (32 + random.nextInt(95)));
            }
            yield "{" + garbage;
          }
        };
    return new Case("malformed JSON", agentPath(), body, Set.of(Status.INVALID_ARGUMENT), true);
  }

  private Case wrongTopLevel() {
    String[] bodies = {"[]", "[{\"data\": {}}]", "\"data\"", "42", "null", "true", " "};
    return new Case(
        "not an object",
        agentPath(),
        bodies[random.nextInt(bodies.length)],
        Set.of(Status.INVALID_ARGUMENT),
        true);
  }

  /** A valid input with one node replaced by a value of another type, or data of another type. */
  private Case wrongTypes() {
    ObjectNode input = input();
    if (random.nextInt(4) == 0) {
      input.set("detach", randomValue(0));
    }
    JsonNode data;
    switch (random.nextInt(6)) {
      case 0 -> data = randomValue(0);
      case 1 -> {
        input.set("message", randomValue(0));
        data = input;
      }
      case 2 -> {
        ((ObjectNode) input.get("message")).set("role", randomValue(0));
        data = input;
      }
      case 3 -> {
        ((ObjectNode) input.get("message")).set("content", randomValue(0));
        data = input;
      }
      case 4 -> {
        ((ObjectNode) input.get("message").get("content").get(0)).set("text", randomValue(0));
        data = input;
      }
      default -> {
        input.set("resume", randomValue(0));
        data = input;
      }
    }
    // Jackson may read some of these as values (a number as text, say): the turn then runs, or
    // fails as a turn with the input's own error. A detach it reads as true (true, or an integer
    // other than 0) is refused by the agent without a store, unless the rest of the input is.
    String path = agentPath();
    JsonNode detach = data == input ? input.path("detach") : Json.nodes().missingNode();
    boolean readAsTrue =
        detach.isBoolean()
            ? detach.booleanValue()
            : detach.isIntegralNumber() && detach.longValue() != 0;
    boolean refused = path.equals("/agents/stateless") && readAsTrue;
    return new Case(
        "wrong types",
        path,
        Json.write(envelope(data)),
        refused
            ? Set.of(Status.INVALID_ARGUMENT, Status.FAILED_PRECONDITION)
            : Set.of(Status.OK, Status.INVALID_ARGUMENT),
        false);
  }

  private Case huge() {
    int size = random.nextInt(2 * MAX_BYTES);
    ObjectNode input = input();
    if (random.nextBoolean()) {
      ((ObjectNode) input.get("message").get("content").get(0)).put("text", "x".repeat(size));
    } else {
      ArrayNode content = (ArrayNode) input.get("message").get("content");
      for (int i = size / 14; i > 0; i--) {
        content.addObject().put("text", "y");
      }
    }
    String body = Json.write(envelope(input));
    // The limit counts the body's bytes: a word such as "ünïcødé" takes more than its characters.
    boolean over = body.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES;
    return new Case(
        over ? "over the size limit" : "large values",
        agentPath(),
        body,
        Set.of(over ? Status.INVALID_ARGUMENT : Status.OK),
        over);
  }

  private Case deep() {
    int depth = 10 + random.nextInt(600);
    StringBuilder nested = new StringBuilder();
    boolean arrays = random.nextBoolean();
    for (int i = 0; i < depth; i++) {
      nested.append(arrays ? "[" : "{\"k\":");
    }
    nested.append("1");
    for (int i = 0; i < depth; i++) {
      nested.append(arrays ? "]" : "}");
    }
    // Each place wraps the value in some levels of its own.
    int place = random.nextInt(3);
    String where =
        switch (place) {
          case 0 -> "{\"data\": %s}";
          case 1 ->
              "{\"data\": {\"message\": {\"role\": \"user\", \"content\": [{\"data\": %s}]}}}";
          default ->
              "{\"data\": {\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"x\"}],"
                  + " \"metadata\": {\"deep\": %s}}}}";
        };
    int levels = depth + (place == 0 ? 1 : place == 1 ? 5 : 4);
    // Past the server's nesting limit the body is refused before anything runs.
    boolean tooDeep = levels > RequestBody.MAX_DEPTH;
    return new Case(
        "deeply nested",
        agentPath(),
        where.formatted(nested),
        tooDeep ? Set.of(Status.INVALID_ARGUMENT) : Set.of(Status.OK, Status.INVALID_ARGUMENT),
        tooDeep);
  }

  private Case unknownFields() {
    ObjectNode body = envelope(input());
    return switch (random.nextInt(3)) {
      case 0 -> {
        body.set("extra" + random.nextInt(100), randomValue(0));
        yield new Case("unknown fields", agentPath(), Json.write(body), Set.of(Status.OK), false);
      }
      case 1 -> {
        ((ObjectNode) body.get("data")).set("bogus", randomValue(0));
        ((ObjectNode) body.get("data").get("message")).set("whatever", randomValue(0));
        yield new Case("unknown fields", agentPath(), Json.write(body), Set.of(Status.OK), false);
      }
      default -> {
        body.putObject("init").set("bogus" + random.nextInt(100), randomValue(0));
        yield new Case(
            "unknown init field",
            agentPath(),
            Json.write(body),
            Set.of(Status.INVALID_ARGUMENT),
            false);
      }
    };
  }

  private String badId() {
    String[] ids = {
      "nope",
      "../etc/passwd",
      "a/b",
      "a\\\\b",
      ".hidden",
      "foo..bar",
      "\u0001",
      "ü",
      "😀",
      " ",
      "x".repeat(2000),
      reserved + "s1",
      "%2e%2e",
      "null",
      "CON",
    };
    return ids[random.nextInt(ids.length)];
  }

  private Case badIds() {
    ObjectNode body = envelope(input());
    ObjectNode init = body.putObject("init");
    String id = badId();
    boolean snapshot = random.nextBoolean();
    init.put(snapshot ? "snapshotId" : "sessionId", id);
    String path = random.nextBoolean() ? "/agents/chat" : "/agents/stateless";
    Set<Status> allowed;
    if (path.endsWith("stateless")) {
      allowed = Set.of(Status.FAILED_PRECONDITION);
    } else if (id.startsWith(reserved)) {
      allowed = Set.of(Status.INVALID_ARGUMENT);
    } else if (snapshot) {
      allowed = Set.of(Status.NOT_FOUND);
    } else {
      // An unknown session ID starts a session under that ID.
      allowed = Set.of(Status.OK);
    }
    return new Case("bad IDs", path, Json.write(body), allowed, false);
  }

  private Case badInit() {
    ObjectNode body = envelope(input());
    String path;
    Set<Status> allowed;
    switch (random.nextInt(6)) {
      case 0 -> {
        ObjectNode init = body.putObject("init");
        init.putObject("state");
        init.put(random.nextBoolean() ? "sessionId" : "snapshotId", "s1");
        path = agentPath();
        allowed = Set.of(Status.INVALID_ARGUMENT);
      }
      case 1 -> {
        body.putObject("init").putObject("state").putArray("messages");
        path = "/agents/chat";
        allowed = Set.of(Status.FAILED_PRECONDITION);
      }
      case 2 -> {
        body.putObject("init").put("sessionId", "s1");
        path = "/agents/stateless";
        allowed = Set.of(Status.FAILED_PRECONDITION);
      }
      case 3 -> {
        body.set("init", randomValue(4));
        path = agentPath();
        JsonNode init = body.get("init");
        allowed =
            init.isNull() || (init.isObject() && init.isEmpty())
                ? Set.of(Status.OK)
                : Set.of(Status.INVALID_ARGUMENT);
      }
      case 4 -> {
        body.putObject("init").set("state", randomValue(0));
        path = "/agents/stateless";
        allowed = Set.of(Status.OK, Status.INVALID_ARGUMENT);
      }
      default -> {
        body.putObject("init").put("continue", true).put("snapshotId", badId());
        path = "/agents/chat";
        allowed = Set.of(Status.NOT_FOUND, Status.INVALID_ARGUMENT);
      }
    }
    return new Case("bad init", path, Json.write(body), allowed, false);
  }

  private Case companion() {
    String route = List.of("getSnapshot", "waitForSnapshot", "abort").get(random.nextInt(3));
    ObjectNode data = Json.object();
    Set<Status> allowed;
    switch (random.nextInt(4)) {
      case 0 -> {
        data.put("snapshotId", badId());
        allowed =
            data.get("snapshotId").stringValue().startsWith(reserved)
                ? Set.of(Status.INVALID_ARGUMENT)
                : Set.of(Status.NOT_FOUND);
      }
      case 1 -> {
        // Neither field, or empty ones: a waitForSnapshot or getSnapshot needs one.
        if (random.nextBoolean()) {
          data.put("snapshotId", "");
        }
        allowed = Set.of(Status.INVALID_ARGUMENT, Status.NOT_FOUND);
      }
      case 2 -> {
        data.set("snapshotId", randomValue(0));
        allowed = Set.of(Status.INVALID_ARGUMENT, Status.NOT_FOUND);
      }
      default -> {
        // The bad-ID turns start sessions under such IDs, so getSnapshot may find one.
        data.put("sessionId", badId());
        allowed = Set.of(Status.OK, Status.INVALID_ARGUMENT, Status.NOT_FOUND);
      }
    }
    ObjectNode body = envelope(data);
    if (random.nextInt(5) == 0) {
      body.putObject("init");
      allowed = Set.of(Status.INVALID_ARGUMENT);
    }
    String agent = random.nextInt(4) == 0 ? "stateless" : "chat";
    if (agent.equals("stateless")) {
      allowed = Set.of(Status.NOT_FOUND);
    }
    return new Case(
        "companions", "/agents/" + agent + "/" + route, Json.write(body), allowed, false);
  }

  private Case flow() {
    JsonNode data = random.nextBoolean() ? Json.nodes().stringNode(word()) : randomValue(0);
    ObjectNode body = envelope(data);
    boolean init = random.nextInt(4) == 0;
    if (init) {
      body.putObject("init");
    }
    Set<Status> allowed =
        init
            ? Set.of(Status.INVALID_ARGUMENT)
            : data.isString() ? Set.of(Status.OK) : Set.of(Status.OK, Status.INVALID_ARGUMENT);
    return new Case("flows", "/flows/echo", Json.write(body), allowed, false);
  }

  /** Every kind the generator makes, for the summary. */
  static List<String> kinds() {
    return new ArrayList<>(
        List.of(
            "malformed JSON",
            "not an object",
            "wrong types",
            "over the size limit",
            "large values",
            "deeply nested",
            "unknown fields",
            "unknown init field",
            "bad IDs",
            "bad init",
            "companions",
            "flows"));
  }
}
