package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import dev.baton.server.TestHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Requests A2A's JSON-RPC refuses: each a spec error with nothing internal on the wire. */
class A2aBadInputTest {
  private final ServedA2a served = new ServedA2a().serve(b -> b.maxRequestBytes(2048));

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  private JsonNode post(String body) {
    TestHttp.Answer answer = TestHttp.post(served.url(), body);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body()).doesNotContain("Exception", "at dev.", "tools.jackson");
    JsonNode json = answer.json();
    assertThat(json.path("jsonrpc").asString()).isEqualTo("2.0");
    assertThat(json.has("result")).isFalse();
    return json;
  }

  @Test
  void malformedJsonIsAParseError() {
    JsonNode answer = post("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(answer.get("id").isNull()).isTrue();
  }

  @Test
  void aBatchOrAnEnvelopeWithoutMethodOrVersionIsAnInvalidRequest() {
    assertThat(post("[]").path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(post("{\"id\": 1, \"method\": \"tasks/get\"}").path("error").path("code").asInt())
        .isEqualTo(-32600);
    assertThat(post("{\"jsonrpc\": \"2.0\", \"id\": 1}").path("error").path("code").asInt())
        .isEqualTo(-32600);
  }

  @Test
  void anUnknownMethodIsMethodNotFoundWithItsId() {
    JsonNode answer = post("{\"jsonrpc\": \"2.0\", \"id\": \"x\", \"method\": \"tasks/explode\"}");
    assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32601);
    assertThat(answer.path("id").asString()).isEqualTo("x");
  }

  @Test
  void anOversizedMessageIsAnInvalidRequest() {
    String big = "x".repeat(4096);
    JsonNode answer =
        post(
            Json.write(
                Json.object()
                    .put("jsonrpc", "2.0")
                    .put("id", 1)
                    .put("method", "message/send")
                    .set("params", ServedA2a.send(big, null, null))));
    assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32600);
  }

  @Test
  void badParamsAreInvalidParamsAndAnUnknownTaskIsTaskNotFound() {
    assertThat(served.call("message/send", Json.object()).path("error").path("code").asInt())
        .isEqualTo(-32602);
    assertThat(
            served
                .call("message/send", Json.object().set("message", Json.object().put("role", 5)))
                .path("error")
                .path("code")
                .asInt())
        .isEqualTo(-32602);
    assertThat(served.call("tasks/get", Json.object()).path("error").path("code").asInt())
        .isEqualTo(-32602);
    JsonNode unknown = served.call("tasks/get", Json.object().put("id", "nope"));
    assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32001);
    assertThat(unknown.path("error").path("message").asString()).isEqualTo("task not found");
  }

  /** message/send's params with the message's field {@code field} set to {@code value}. */
  private static JsonNode sendWith(String field, JsonNode value) {
    ObjectNode params = ServedA2a.send("hello", null, null);
    params.withObject("message").set(field, value);
    return params;
  }

  private static ObjectNode part(String json) {
    return (ObjectNode) Json.parse(json);
  }

  private void assertInvalidParams(JsonNode params, String naming) {
    JsonNode answer = served.call("message/send", params);
    assertThat(answer.path("error").path("code").asInt()).as("%s", answer).isEqualTo(-32602);
    assertThat(answer.path("error").path("message").asString()).contains(naming);
    assertThat(answer.toString()).doesNotContain("Exception", "at dev.", "tools.jackson", "Cannot");
  }

  @Test
  void nestedFieldsAreCheckedAndNamedInTheInvalidParamsError() {
    assertInvalidParams(
        sendWith("parts", Json.nodes().arrayNode().add(part("{\"kind\": \"text\"}"))),
        "params.message.parts[0].text");
    assertInvalidParams(
        sendWith(
            "parts",
            Json.nodes()
                .arrayNode()
                .add(part("{\"kind\": \"file\", \"file\": {\"name\": \"a\"}}"))),
        "params.message.parts[0].file");
    assertInvalidParams(
        sendWith(
            "parts",
            Json.nodes()
                .arrayNode()
                .add(
                    part(
                        "{\"kind\": \"file\", \"file\": {\"bytes\": \"AA==\", \"uri\": \"x:y\"}}"))),
        "params.message.parts[0].file");
    assertInvalidParams(
        sendWith("parts", Json.nodes().arrayNode().add(part("{\"kind\": \"video\"}"))),
        "params.message.parts[0].kind");
    assertInvalidParams(
        sendWith("parts", Json.nodes().arrayNode().add(part("{\"kind\": \"data\", \"data\": 3}"))),
        "params.message.parts[0].data");
    assertInvalidParams(sendWith("parts", Json.nodes().stringNode("x")), "params.message.parts");
    assertInvalidParams(sendWith("parts", Json.nodes().arrayNode()), "params.message.parts");
    assertInvalidParams(sendWith("messageId", Json.nodes().nullNode()), "params.message.messageId");
    assertInvalidParams(sendWith("role", Json.nodes().stringNode("agent")), "params.message.role");
    assertInvalidParams(
        sendWith("contextId", Json.nodes().numberNode(5)), "params.message.contextId");
    ObjectNode noRole = ServedA2a.send("hello", null, null);
    noRole.withObject("message").remove("role");
    assertInvalidParams(noRole, "params.message.role");
    ObjectNode noParts = ServedA2a.send("hello", null, null);
    noParts.withObject("message").remove("parts");
    assertInvalidParams(noParts, "params.message.parts");
    ObjectNode blocking = ServedA2a.send("hello", null, null);
    blocking.withObject("configuration").put("blocking", "yes");
    assertInvalidParams(blocking, "params.configuration.blocking");
    assertThat(served.model.requests()).as("no refused message reached the agent").isEmpty();
  }

  @Test
  void aNullIdIsAcceptedAndEchoedAsNull() {
    served.model.respondText("Hi.");
    ObjectNode request = Json.object().put("jsonrpc", "2.0").put("method", "message/send");
    request.putNull("id");
    request.set("params", ServedA2a.send("hello", null, null));
    TestHttp.Answer answer = TestHttp.post(served.url(), request);
    JsonNode json = answer.json();
    assertThat(json.has("id")).isTrue();
    assertThat(json.get("id").isNull()).isTrue();
    assertThat(json.at("/result/status/state").asString()).isEqualTo("completed");
  }

  @Test
  void pushNotificationsAreNotSupported() {
    JsonNode answer =
        served.call("tasks/pushNotificationConfig/set", Json.object().put("taskId", "t"));
    assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32003);
  }
}
