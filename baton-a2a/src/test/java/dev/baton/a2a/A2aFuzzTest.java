package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.core.Json;
import dev.baton.server.FuzzHarness;
import dev.baton.server.TestHttp;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Seeded random JSON-RPC requests against a served agent's A2A routes, on the server's {@link
 * FuzzHarness} ({@code -Dbaton.fuzz.seed} picks another seed): malformed and truncated JSON, wrong
 * types in every field, deep nesting, oversized bodies, every method (streamed ones too) and
 * unknown ones, mutated valid requests (nested fields and parts of every kind included) and null
 * ids. Each answer is a JSON-RPC response, or a stream of them, with a result or one of the
 * specification's error codes, never a 5xx, and carries nothing internal; the agent then still
 * answers a normal message.
 */
@Timeout(300)
class A2aFuzzTest {
  private static final int CASES = 1_000;
  private static final int CONCURRENCY = 8;
  private static final int MAX_BYTES = 16 * 1024;
  private static final Set<Integer> SPEC_CODES =
      Set.of(-32700, -32600, -32601, -32602, -32603, -32001, -32002, -32003, -32004, -32007);
  private static final List<String> METHODS =
      List.of(
          "message/send",
          "message/stream",
          "tasks/get",
          "tasks/cancel",
          "tasks/resubscribe",
          "tasks/pushNotificationConfig/get",
          "agent/getAuthenticatedExtendedCard",
          "tasks/none",
          "");
  private static final List<JsonNode> ODD_VALUES =
      List.of(
          Json.nodes().nullNode(),
          Json.nodes().numberNode(7),
          Json.nodes().booleanNode(true),
          Json.nodes().stringNode(""),
          Json.nodes().stringNode("\uD800"),
          Json.nodes().arrayNode(),
          Json.object(),
          Json.object().put("kind", "nope"));

  /** Parts of every kind with a field missing or of the wrong type. */
  private static final List<String> ODD_PARTS =
      List.of(
          "{\"kind\": \"text\"}",
          "{\"kind\": \"text\", \"text\": 5}",
          "{\"kind\": \"file\"}",
          "{\"kind\": \"file\", \"file\": {}}",
          "{\"kind\": \"file\", \"file\": {\"bytes\": \"AA==\", \"uri\": \"x:y\"}}",
          "{\"kind\": \"file\", \"file\": {\"uri\": 7}}",
          "{\"kind\": \"data\", \"data\": [1]}",
          "{\"kind\": \"data\"}",
          "{\"kind\": \"video\", \"text\": \"x\"}",
          "{\"text\": \"no kind\"}",
          "{\"kind\": \"text\", \"text\": \"x\", \"metadata\": 1}");

  private final ServedA2a served = new ServedA2a().serve(b -> b.maxRequestBytes(MAX_BYTES));
  private final Random random = new Random(Long.getLong("baton.fuzz.seed", 20261206L));
  // Requests whose only fault is an odd part: each must be refused as invalid params.
  private final Set<String> oddParts = ConcurrentHashMap.newKeySet();

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void everyAnswerIsASpecResponseWithNothingInternal() throws Exception {
    served.model.fallback(request -> ModelResponse.of(Message.model("ok"), FinishReason.STOP));
    ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();

    FuzzHarness.run(
        CASES,
        CONCURRENCY,
        i -> next(),
        (body, i) -> {
          TestHttp.Answer answer = TestHttp.post(served.url(), body);
          String what = abbreviate(body) + " -> " + abbreviate(answer.body());
          if (FuzzHarness.INTERNAL_DETAIL.matcher(answer.body()).find()) {
            problems.add("an internal detail: " + what);
          }
          problem(answer).ifPresent(problem -> problems.add(problem + ": " + what));
          if (oddParts.contains(body) && answer.json().at("/error/code").asInt() != -32602) {
            problems.add("an odd part not refused as invalid params: " + what);
          }
        });

    served.model.fallback(
        request -> ModelResponse.of(Message.model("still here"), FinishReason.STOP));
    JsonNode normal = served.result("message/send", ServedA2a.send("hello", null, null));
    assertThat(problems).as("answers that break the specification or leak").isEmpty();
    assertThat(normal.at("/status/message/parts/0/text").asString()).isEqualTo("still here");
  }

  /** What is wrong with an answer, if anything. */
  private static Optional<String> problem(TestHttp.Answer answer) {
    if (answer.status() != 200) {
      return Optional.of("HTTP " + answer.status());
    }
    List<JsonNode> responses =
        answer.contentType().startsWith("text/event-stream")
            ? answer.frames()
            : List.of(answer.json());
    if (responses.isEmpty()) {
      return Optional.of("an empty stream");
    }
    for (JsonNode response : responses) {
      if (!response.path("jsonrpc").asString("").equals("2.0")) {
        return Optional.of("not a JSON-RPC response");
      }
      if (response.has("error")) {
        if (!SPEC_CODES.contains(response.at("/error/code").asInt())
            || response.at("/error/message").asString("").isEmpty()) {
          return Optional.of("an error outside the specification");
        }
      } else if (!response.has("result")) {
        return Optional.of("neither a result nor an error");
      }
    }
    return Optional.empty();
  }

  private String next() {
    return switch (random.nextInt(8)) {
      case 0 -> {
        String valid = Json.write(valid());
        yield valid.substring(0, random.nextInt(valid.length()));
      }
      case 1 -> "[".repeat(random.nextInt(2000) + 1);
      case 2 -> {
        ObjectNode request = valid();
        request.withObject("params").withObject("message").put("messageId", "x".repeat(MAX_BYTES));
        yield Json.write(request);
      }
      case 3 -> {
        ObjectNode request = valid();
        request.put("method", METHODS.get(random.nextInt(METHODS.size())));
        yield Json.write(request);
      }
      case 4 -> {
        ObjectNode request = valid();
        request.put("method", METHODS.get(random.nextInt(5)));
        request.set(
            "params", Json.object().set("id", ODD_VALUES.get(random.nextInt(ODD_VALUES.size()))));
        yield Json.write(request);
      }
      case 5 -> {
        ObjectNode request = valid();
        request
            .withObject("params")
            .withObject("message")
            .withArray("parts")
            .set(0, Json.parse(ODD_PARTS.get(random.nextInt(ODD_PARTS.size()))));
        String body = Json.write(request);
        oddParts.add(body);
        yield body;
      }
      default -> Json.write(mutate(valid()));
    };
  }

  private ObjectNode valid() {
    ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", random.nextInt(1000));
    request.put("method", random.nextBoolean() ? "message/send" : "message/stream");
    request.set("params", ServedA2a.send("hello " + random.nextInt(), null, null));
    if (random.nextInt(10) == 0) {
      request.putNull("id");
    }
    return request;
  }

  /** Replaces one field, at any depth, with an odd value. */
  private ObjectNode mutate(ObjectNode request) {
    ObjectNode target = request;
    List<String> path =
        switch (random.nextInt(12)) {
          case 0 -> List.of("jsonrpc");
          case 1 -> List.of("id");
          case 2 -> List.of("method");
          case 3 -> List.of("params");
          case 4 -> List.of("params", "message");
          case 5 -> List.of("params", "message", "parts");
          case 6 -> List.of("params", "message", "messageId");
          case 7 -> List.of("params", "message", "contextId");
          case 8 -> List.of("params", "message", "referenceTaskIds");
          case 9 -> List.of("params", "message", "metadata");
          case 10 -> List.of("params", "configuration");
          default -> List.of("params", "message", "role");
        };
    for (String field : path.subList(0, path.size() - 1)) {
      target = (ObjectNode) target.get(field);
    }
    target.set(path.getLast(), ODD_VALUES.get(random.nextInt(ODD_VALUES.size())));
    return request;
  }

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "…";
  }
}
