package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Agent input as a remote client sends it, in Genkit's JSON: what Genkit's protocol lets a careless
 * client leave out is filled in, and what it forbids is an {@code INVALID_ARGUMENT} error, never a
 * NullPointerException or an internal error.
 */
class WireInputTest extends AgentTestSupport {
  private final Agent agent = chat(server().build());

  private JsonNode run(String input, @Nullable String init) {
    return agent.runJson(
        ActionContext.root(baton.registry()),
        Json.parse(input),
        init == null ? null : Json.parse(init),
        chunk -> {});
  }

  @Test
  void aMessageWithoutARoleIsTheUsers() {
    for (String message :
        List.of(
            "{\"content\":[{\"text\":\"hi\"}]}",
            "{\"role\":null,\"content\":[{\"text\":\"hi\"}]}",
            "{\"role\":\"\",\"content\":[{\"text\":\"hi\"}]}")) {
      model.respondText("hello");

      JsonNode output = run("{\"message\":" + message + "}", null);

      assertThat(output.path("finishReason").asString()).as(message).isEqualTo("stop");
      assertThat(model.lastRequest().messages().get(1).role()).isEqualTo(Role.USER);
      assertThat(model.lastRequest().messages().get(1).text()).isEqualTo("hi");
    }
  }

  @Test
  void aResumeEntryWithoutItsPayloadIsSkipped() {
    model.respondText("hello");

    JsonNode output =
        run(
            "{\"message\":{\"role\":\"user\",\"content\":[{\"text\":\"hi\"}]},"
                + "\"resume\":{\"respond\":[null,{\"metadata\":{}}],\"restart\":[{}]}}",
            null);

    assertThat(output.path("finishReason").asString()).isEqualTo("stop");
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void aNumberWhereAStringOrAnEnumBelongsIsInvalidArgument() {
    assertInvalid(
        () -> run("{\"message\":{\"role\":\"user\",\"content\":[]}}", "{\"sessionId\":5}"));
    assertInvalid(() -> run("{\"message\":{\"role\":\"user\",\"content\":[{\"text\":7}]}}", null));
    assertInvalid(() -> run("{\"message\":{\"role\":1,\"content\":[{\"text\":\"hi\"}]}}", null));
  }

  @Test
  void aMessageNestedTooDeepIsInvalidArgument() {
    ObjectNode input = Json.object();
    ObjectNode message = input.putObject("message").put("role", "user");
    ObjectNode data = message.putArray("content").addObject().putObject("data");
    for (int i = 0; i < 50_000; i++) {
      data = data.putObject("x");
    }

    assertInvalid(
        () -> agent.runJson(ActionContext.root(baton.registry()), input, null, chunk -> {}));
  }

  @Test
  void aPartWithoutWhatItsKeyNamesIsInvalidArgument() {
    for (String part :
        List.of(
            "{\"toolRequest\":null}",
            "{\"toolRequest\":{\"ref\":\"r1\",\"input\":{}}}",
            "{\"toolResponse\":{\"ref\":\"r1\",\"output\":1}}",
            "{\"text\":null}",
            "{\"media\":{\"contentType\":\"image/png\"}}")) {
      String message = "{\"role\":\"user\",\"content\":[" + part + "]}";
      assertInvalid(() -> run("{\"message\":" + message + "}", null));
      // A client-managed session's history is read the same way; the tool loop once failed on
      // such a part in it with a NullPointerException.
      assertInvalid(
          () ->
              run(
                  "{\"message\":{\"role\":\"user\",\"content\":[{\"text\":\"hi\"}]}}",
                  "{\"state\":{\"messages\":[" + message.replace("user", "model") + "]}}"));
    }
    // A resume's entry without its payload is skipped, but a payload without a name is an error.
    assertInvalid(
        () -> run("{\"resume\":{\"restart\":[{\"toolRequest\":{\"ref\":\"r1\"}}]}}", null));
    assertThat(model.calls()).isZero();
  }

  private static void assertInvalid(Runnable call) {
    assertThat(catchThrowable(call::run))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT);
              assertThat(e.isPublic()).isTrue();
            });
  }
}
