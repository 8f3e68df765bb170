package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import dev.baton.server.TestHttp;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Seeded random JSON-RPC requests against a served agent: malformed and truncated JSON, wrong types
 * in every field, deep nesting, oversized bodies, unknown methods and mutated valid requests. Each
 * answer is a JSON-RPC response with a result or one of the specification's error codes, and
 * carries nothing internal.
 */
class A2aFuzzTest {
  private static final int MAX_BYTES = 16 * 1024;
  private static final Set<Integer> SPEC_CODES =
      Set.of(-32700, -32600, -32601, -32602, -32603, -32001, -32002, -32003, -32004, -32007);
  private static final List<String> METHODS =
      List.of(
          "message/send",
          "tasks/get",
          "tasks/cancel",
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

  private final ServedA2a served = new ServedA2a().serve(b -> b.maxRequestBytes(MAX_BYTES));
  private final Random random = new Random(20261206L);

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void everyAnswerIsASpecResponseWithNothingInternal() {
    served.model.fallback(
        request ->
            dev.baton.ai.ModelResponse.of(
                dev.baton.ai.Message.model("ok"), dev.baton.ai.FinishReason.STOP));
    for (int i = 0; i < 150; i++) {
      String body = next();
      TestHttp.Answer answer = TestHttp.post(served.url(), body);

      assertThat(answer.status()).as(body).isEqualTo(200);
      assertThat(answer.body())
          .as(body)
          .doesNotContain("Exception", "\tat ", "dev.baton.", "tools.jackson", "java.");
      JsonNode json = answer.json();
      assertThat(json.path("jsonrpc").asString()).as(body).isEqualTo("2.0");
      if (json.has("error")) {
        assertThat(SPEC_CODES).as(body).contains(json.path("error").path("code").asInt());
        assertThat(json.path("error").path("message").asString()).as(body).isNotEmpty();
      } else {
        assertThat(json.has("result")).as(body).isTrue();
      }
    }
  }

  private String next() {
    return switch (random.nextInt(6)) {
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
      default -> Json.write(mutate(valid()));
    };
  }

  private ObjectNode valid() {
    ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", random.nextInt(1000));
    request.put("method", "message/send");
    request.set("params", ServedA2a.send("hello " + random.nextInt(), null, null));
    return request;
  }

  /** Replaces one field, at any depth, with an odd value. */
  private ObjectNode mutate(ObjectNode request) {
    ObjectNode target = request;
    List<String> path =
        switch (random.nextInt(6)) {
          case 0 -> List.of("jsonrpc");
          case 1 -> List.of("id");
          case 2 -> List.of("params");
          case 3 -> List.of("params", "message");
          case 4 -> List.of("params", "message", "parts");
          default -> List.of("params", "message", "role");
        };
    for (String field : path.subList(0, path.size() - 1)) {
      target = (ObjectNode) target.get(field);
    }
    target.set(path.getLast(), ODD_VALUES.get(random.nextInt(ODD_VALUES.size())));
    return request;
  }
}
