package dev.baton.samples.agentsserver;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.ai.InlinePrompt;
import dev.baton.middleware.agents.Agents;

/**
 * The agents the sample serves, as Genkit's basic-agents-server defines them, plus a researcher and
 * a coordinator that hands questions to the researcher in the background.
 */
final class ServedAgents {
  static final String TRAVEL_SYSTEM =
      "You are a friendly travel assistant. Answer in a couple of sentences.";
  static final String RESEARCHER_SYSTEM =
      "Research the question you are given and answer in a few sentences.";
  static final String COORDINATOR_SYSTEM =
      "You coordinate research. Hand the user's question to the researcher in the background,"
          + " wait for its findings, then sum them up for the user in a sentence or two.";

  private ServedAgents() {}

  /**
   * Defines {@code chat}, {@code researcher} and {@code coordinator}, each with its store from
   * {@code stores}, and {@code statelessChat} (the client keeps the state).
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
    Agent researcher =
        baton.defineAgent(
            "researcher",
            InlinePrompt.builder().model(model).system(RESEARCHER_SYSTEM).build(),
            AgentOptions.builder()
                .description("Researches one question and answers in a few sentences.")
                .sessionStore(stores.forAgent("researcher"))
                .build());
    // The researcher runs as a task of its own, in its own session: the console shows it under
    // the coordinator's turn.
    baton.defineAgent(
        "coordinator",
        InlinePrompt.builder()
            .model(model)
            .system(COORDINATOR_SYSTEM)
            // Launch, wait, answer: three model calls.
            .maxTurns(5)
            .use(Agents.builder().agents(researcher.ref()).async(true).build())
            .build(),
        AgentOptions.builder()
            .description("Hands a question to the researcher in the background and sums it up.")
            .sessionStore(stores.forAgent("coordinator"))
            .build());
  }
}
