package dev.baton.store.postgres;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.testing.ProgrammableModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What both JVMs of the fault test agree on: the agent, its heartbeat, and the conversation its
 * turns produce, so the test can tell what every snapshot must hold.
 */
final class FaultScenario {
  /**
   * Beats every 50 ms; a row whose last beat is 2 s old reads expired. A shorter timeout lets a
   * live worker that a saturated machine starves of CPU read expired (seen at 400 ms, load average
   * 20).
   */
  static final Duration BEAT = Duration.ofMillis(50);

  static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(2);

  static final String FIRST_QUESTION = "hello";

  private FaultScenario() {}

  /** An experimental Baton with the scripted model "pm", which answers {@link #answer}. */
  static ProgrammableModel model(Baton baton) {
    return ProgrammableModel.define(baton.registry(), "pm").fallback(FaultScenario::reply);
  }

  /** The agent, on {@code store}. */
  static Agent agent(Baton baton, SessionStore store) {
    return baton.defineAgent(
        "worker",
        InlinePrompt.builder().model("pm").system("Work.").build(),
        AgentOptions.builder()
            .sessionStore(store)
            .heartbeat(BEAT, HEARTBEAT_TIMEOUT)
            .waitPollInterval(BEAT)
            .build());
  }

  static String question(int turn) {
    return "question " + turn;
  }

  static String answer(String question) {
    return "answer to " + question;
  }

  /**
   * The texts of the conversation's first {@code turns} turns after the first: {@link
   * #FIRST_QUESTION}, its answer, then each numbered question and its answer.
   */
  static List<String> conversation(int turns) {
    List<String> texts = new ArrayList<>(List.of(FIRST_QUESTION, answer(FIRST_QUESTION)));
    for (int turn = 1; turn <= turns; turn++) {
      texts.add(question(turn));
      texts.add(answer(question(turn)));
    }
    return texts;
  }

  private static ModelResponse reply(ModelRequest request) {
    Message last = request.messages().get(request.messages().size() - 1);
    return ModelResponse.of(Message.model(answer(last.text())), FinishReason.STOP);
  }
}
