package dev.baton.samples.agentsserver;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.ai.InlinePrompt;

/**
 * The agents the sample serves, as Genkit's basic-agents-server defines them, plus a researcher.
 */
final class ServedAgents {
  static final String TRAVEL_SYSTEM =
      "You are a friendly travel assistant. Answer in a couple of sentences.";
  static final String RESEARCHER_SYSTEM =
      "Research the question you are given and answer in a few sentences.";

  private ServedAgents() {}

  /**
   * Defines {@code chat} and {@code researcher}, each with its store from {@code stores}, and
   * {@code statelessChat} (the client keeps the state).
   */
  static void define(Baton baton, String model, SessionStores stores) {
    InlinePrompt travel = InlinePrompt.builder().model(model).system(TRAVEL_SYSTEM).build();
    baton.defineAgent(
        "chat",
        travel,
        AgentOptions.builder()
            .description("A travel assistant that remembers the conversation.")
            .sessionStore(stores.forAgent("chat"))
            .build());
    baton.defineAgent(
        "statelessChat",
        travel,
        AgentOptions.builder()
            .description("The same assistant; the client sends the conversation back each turn.")
            .build());
    baton.defineAgent(
        "researcher",
        InlinePrompt.builder().model(model).system(RESEARCHER_SYSTEM).build(),
        AgentOptions.builder()
            .description("Researches one question and answers in a few sentences.")
            .sessionStore(stores.forAgent("researcher"))
            .build());
  }
}
