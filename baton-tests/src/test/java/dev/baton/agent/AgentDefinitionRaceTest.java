package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.InlinePrompt;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two definitions of one agent name racing each other: one is defined, the other is refused by the
 * agent's name, and no prompt is left registered without its agent. The race is rare in one round,
 * so each test runs many.
 */
class AgentDefinitionRaceTest {
  private static final int ROUNDS = 500;
  private static final InlinePrompt PROMPT = InlinePrompt.builder().model("pm").build();

  private final ExecutorService threads = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void ofTwoPromptAgentsUnderOneNameTheLoserIsRefusedByTheAgentsName() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Baton baton = Baton.builder().experimental().build();

      List<Outcome> outcomes =
          race(() -> baton.defineAgent("a", PROMPT), () -> baton.defineAgent("a", PROMPT));

      assertThat(outcomes).as("round %d", round).filteredOn(Outcome::defined).hasSize(1);
      assertRefusedByName(outcomes, round);
    }
  }

  @Test
  void aPromptAgentThatLosesToACustomAgentLeavesNoPromptBehind() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Baton baton = Baton.builder().experimental().build();

      List<Outcome> outcomes =
          race(
              () -> baton.defineAgent("a", PROMPT),
              () -> baton.defineCustomAgent("a", AgentRunner::result, AgentOptions.DEFAULTS));

      Outcome promptAgent = outcomes.get(0);
      assertThat(outcomes).as("round %d", round).filteredOn(Outcome::defined).hasSize(1);
      assertThat(baton.agent("a"))
          .as("round %d", round)
          .isSameAs(promptAgent.defined() ? promptAgent.agent() : outcomes.get(1).agent());
      assertThat(baton.registry().lookup(ActionType.EXECUTABLE_PROMPT, "a").isPresent())
          .as("round %d: a prompt is registered exactly when its agent won", round)
          .isEqualTo(promptAgent.defined());
      if (!promptAgent.defined()) {
        assertRefusedByName(List.of(promptAgent), round);
      }
    }
  }

  private static void assertRefusedByName(List<Outcome> outcomes, int round) {
    for (Outcome outcome : outcomes) {
      if (!outcome.defined()) {
        assertThat(outcome.refusal())
            .as("round %d", round)
            .isInstanceOfSatisfying(
                BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.ALREADY_EXISTS))
            .hasMessage("an agent named \"a\" is already defined");
      }
    }
  }

  /** What one definition came to: the agent it defined, or why it was refused. */
  private record Outcome(@Nullable Agent agent, @Nullable Throwable refusal) {
    boolean defined() {
      return agent != null;
    }
  }

  /** Runs two definitions on two threads released by one latch, and reports each's outcome. */
  private List<Outcome> race(Supplier<Agent> first, Supplier<Agent> second) throws Exception {
    CountDownLatch ready = new CountDownLatch(2);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Agent>> runs = new ArrayList<>();
    for (Supplier<Agent> definition : List.of(first, second)) {
      runs.add(
          threads.submit(
              () -> {
                ready.countDown();
                go.await();
                return definition.get();
              }));
    }
    ready.await();
    go.countDown();
    List<Outcome> outcomes = new ArrayList<>();
    for (Future<Agent> run : runs) {
      try {
        outcomes.add(new Outcome(run.get(), null));
      } catch (ExecutionException e) {
        outcomes.add(new Outcome(null, e.getCause()));
      }
    }
    return outcomes;
  }
}
