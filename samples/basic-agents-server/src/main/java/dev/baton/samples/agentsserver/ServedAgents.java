package dev.baton.samples.agentsserver;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.ai.InlinePrompt;
import java.nio.file.Path;

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
   * Defines {@code chat} (its sessions in {@code <snapshots>/chat}), {@code statelessChat} (the
   * client keeps the state) and {@code researcher} (sessions in {@code <snapshots>/researcher}).
   */
  static void define(Baton baton, String model, Path snapshots) {
    InlinePrompt travel = InlinePrompt.builder().model(model).system(TRAVEL_SYSTEM).build();
    baton.defineAgent(
        "chat",
        travel,
        AgentOptions.builder()
            .description("A travel assistant that remembers the conversation.")
            .sessionStore(FileSessionStore.builder(snapshots.resolve("chat")).build())
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
            .sessionStore(FileSessionStore.builder(snapshots.resolve("researcher")).build())
            .build());
  }
}
