package dev.baton.samples.mcpagents;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import java.nio.file.Path;

/** The sample's two agents: one that reads a folder through MCP, one that Baton serves over MCP. */
final class SampleAgents {
  static final String FOLDER_GUIDE = "folderGuide";
  static final String RESEARCHER = "researcher";

  /** The folder guide's system prompt, which ends with the folder it may read. */
  static final String FOLDER_SYSTEM =
      "You answer questions about the files in one folder. List it, read the files the question is"
          + " about, then answer in a few sentences. The folder is ";

  static final String RESEARCHER_SYSTEM =
      "Research the question you are given and answer in a few sentences.";

  /** The filesystem server's read-only tools the guide may call, by their Baton names. */
  static final String[] FOLDER_TOOLS = {
    "fs/list_directory", "fs/read_text_file", "fs/search_files", "fs/get_file_info"
  };

  private SampleAgents() {}

  /**
   * Defines {@code folderGuide}, whose client keeps the conversation (the sample's terminal sends
   * it back each turn), and {@code researcher}, whose sessions the server keeps in memory, so an
   * MCP client can continue one by its {@code sessionId}.
   */
  static void define(Baton baton, String model, Path folder) {
    baton.defineAgent(
        FOLDER_GUIDE,
        InlinePrompt.builder()
            .model(model)
            .system(FOLDER_SYSTEM + folder)
            .toolNames(FOLDER_TOOLS)
            .build(),
        AgentOptions.builder()
            .description("Answers questions about the files in " + folder + ".")
            .build());
    baton.defineAgent(
        RESEARCHER,
        InlinePrompt.builder().model(model).system(RESEARCHER_SYSTEM).build(),
        AgentOptions.builder()
            .description("Researches one question and answers in a few sentences.")
            .sessionStore(InMemorySessionStore.create())
            .build());
  }
}
