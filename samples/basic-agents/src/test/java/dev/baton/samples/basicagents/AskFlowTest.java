package dev.baton.samples.basicagents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.ModelInfo;
import dev.baton.core.BatonException;
import dev.baton.core.Flow;
import dev.baton.core.Status;
import java.io.OutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/** The flow that Genkit's CLI runs in the sample: {@code genkit flow:run ask '"..."'}. */
class AskFlowTest {
  private final Baton baton = Baton.builder().experimental().build();
  private final Console console =
      new Console(new PrintStream(OutputStream.nullOutputStream()), false);

  @Test
  void theAskFlowAnswersWithTheOrchestratorsReply() {
    DemoModel.define(baton);
    Agent coordinator =
        Team.define(baton, DemoModel.NAME, console::line, InMemorySessionStore.create());

    Flow<String, String, Void> ask = BasicAgents.defineAskFlow(baton, coordinator);

    assertThat(baton.registry().lookup("/flow/ask")).contains(ask);
    assertThat(ask.run("Explain binary search"))
        .startsWith("Here is what the team found. The researcher's notes cover Explain binary");
  }

  @Test
  void aFailedTurnFailsTheFlowWithTheTurnsStatus() {
    baton.defineModel(
        "down",
        ModelInfo.of("A model that is down", ModelInfo.Supports.TEXT_ONLY),
        (context, request, stream) -> {
          throw BatonException.of(Status.UNAVAILABLE, "the model is down");
        });
    Agent coordinator = Team.define(baton, "down", console::line, InMemorySessionStore.create());

    Flow<String, String, Void> ask = BasicAgents.defineAskFlow(baton, coordinator);

    assertThatThrownBy(() -> ask.run("Explain binary search"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE))
        .hasMessageContaining("the model is down");
  }
}
