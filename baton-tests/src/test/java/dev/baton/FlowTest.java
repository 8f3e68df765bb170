package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Flow;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class FlowTest {
  record Greeting(String name, int times) {}

  record Reply(String text) {}

  /** An enum Jackson cannot describe: naming its constants fails. */
  enum Unnamable {
    ONLY;

    @JsonValue
    String wireName() {
      throw new IllegalStateException("no wire name");
    }
  }

  record Order(Unnamable kind) {}

  private final Baton baton = Baton.builder().build();

  @Test
  void aFlowWhoseSchemaCannotBeInferredFailsAtDefinitionAndIsNotRegistered() {
    assertThatThrownBy(
            () -> baton.defineFlow("order", Order.class, Reply.class, (ctx, in) -> new Reply("")))
        .isInstanceOf(RuntimeException.class);
    assertThat(baton.registry().lookup("/flow/order")).isEmpty();
  }

  @Test
  void aFlowRunsTypedAndIsRegisteredUnderFlowKey() {
    Flow<Greeting, Reply, Void> flow =
        baton.defineFlow(
            "greet",
            Greeting.class,
            Reply.class,
            (ctx, in) -> new Reply(("hello " + in.name() + " ").repeat(in.times()).trim()));
    assertThat(flow.run(new Greeting("bob", 2)).text()).isEqualTo("hello bob hello bob");
    assertThat(baton.registry().lookup("/flow/greet")).containsSame(flow);
    assertThat(flow.descriptor().type()).isEqualTo(ActionType.FLOW);
  }

  @Test
  void aFlowRunsFromRawJson() {
    Flow<Greeting, Reply, Void> flow =
        baton.defineFlow("greet", Greeting.class, Reply.class, (ctx, in) -> new Reply(in.name()));
    JsonNode out = flow.runJson(Json.parse("{\"name\":\"ann\",\"times\":1}"));
    assertThat(out.toString()).isEqualTo("{\"text\":\"ann\"}");
  }

  @Test
  void jsonInputIsValidatedAgainstTheSchemaBeforeTheFlowRuns() {
    List<Greeting> seen = new ArrayList<>();
    Flow<Greeting, Reply, Void> flow =
        baton.defineFlow(
            "greet",
            Greeting.class,
            Reply.class,
            (ctx, in) -> {
              seen.add(in);
              return new Reply(in.name());
            });
    assertThatThrownBy(() -> flow.runJson(Json.parse("{\"times\":\"two\"}")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("$.times")
        .hasMessageContaining("name");
    assertThat(seen).isEmpty();
  }

  @Test
  void malformedJsonIsInvalidArgumentNotACrash() {
    Flow<Greeting, Reply, Void> flow =
        baton.defineFlow("greet", Greeting.class, Reply.class, (ctx, in) -> new Reply(in.name()));
    // A body that does not parse, as a server reads it, and one of the wrong shape altogether.
    assertThatThrownBy(() -> flow.runJson(Json.parse("{\"name\": \"bob\"")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    assertThatThrownBy(() -> flow.runJson(Json.parse("[1, 2]")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
  }

  @Test
  void aStreamingFlowDeliversChunksInOrder() {
    Flow<Integer, String, Integer> countdown =
        baton.defineStreamingFlow(
            "countdown",
            Integer.class,
            String.class,
            Integer.class,
            (ctx, from, stream) -> {
              for (int i = from; i > 0; i--) {
                stream.onChunk(i);
              }
              return "liftoff";
            });
    List<Integer> chunks = new ArrayList<>();
    assertThat(countdown.stream(5, chunks::add)).isEqualTo("liftoff");
    assertThat(chunks).containsExactly(5, 4, 3, 2, 1);

    List<String> jsonChunks = new ArrayList<>();
    JsonNode out =
        countdown.runJson(
            baton.context(), Json.parse("3"), chunk -> jsonChunks.add(chunk.toString()));
    assertThat(out.asString()).isEqualTo("liftoff");
    assertThat(jsonChunks).containsExactly("3", "2", "1");
  }

  @Test
  void aFlowRejectsAnInitPayload() {
    Flow<Greeting, Reply, Void> flow =
        baton.defineFlow("greet", Greeting.class, Reply.class, (ctx, in) -> new Reply(in.name()));
    assertThatThrownBy(
            () ->
                flow.runJson(
                    baton.context(),
                    Json.parse("{\"name\":\"a\",\"times\":1}"),
                    Json.object(),
                    StreamCallback.discard()))
        .hasMessageContaining("does not accept init");
  }

  @Test
  void twoInstancesDoNotSeeEachOthersActions() {
    Baton other = Baton.builder().build();
    baton.defineFlow("greet", Greeting.class, Reply.class, (ctx, in) -> new Reply("one"));
    assertThat(other.registry().lookup("/flow/greet")).isEmpty();
    Flow<Greeting, Reply, Void> second =
        other.defineFlow("greet", Greeting.class, Reply.class, (ctx, in) -> new Reply("two"));
    assertThat(second.run(new Greeting("x", 1)).text()).isEqualTo("two");
  }

  @Test
  void aDuplicateFlowNameIsRejected() {
    baton.defineFlow("greet", Greeting.class, Reply.class, (ctx, in) -> new Reply("one"));
    assertThatThrownBy(
            () ->
                baton.defineFlow(
                    "greet", Greeting.class, Reply.class, (ctx, in) -> new Reply("two")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.ALREADY_EXISTS));
  }
}
