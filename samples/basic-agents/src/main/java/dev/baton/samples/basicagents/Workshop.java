package dev.baton.samples.basicagents;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Tool;
import dev.baton.core.BatonException;
import dev.baton.middleware.ToolApproval;
import dev.baton.middleware.agents.Agents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A lead whose coder writes files into a workspace, each write only with the user's approval: the
 * coder's {@code write_file} is held by {@link ToolApproval}, and the lead forwards its sub-agent's
 * question ({@link Agents.Builder#forwardInterrupts}), so the lead's turn stops on it, the terminal
 * asks the user ({@link Approvals}), and the answer goes back to the coder, whose work goes on.
 */
final class Workshop {
  /** The lead's system prompt, which the demo model recognises it by. */
  static final String LEAD_SYSTEM =
      "Lead a coding task: hand the files to write to file_coder, then report what it did.";

  /** The coder's system prompt, which the demo model recognises it by. */
  static final String CODER_SYSTEM =
      "Write the files your task needs with write_file, one call per file, paths relative to the"
          + " workspace.";

  /** The coder's tool, which asks the user before it runs. */
  static final String WRITE_FILE = "write_file";

  private Workshop() {}

  record FileWrite(
      @JsonPropertyDescription("The file's path, relative to the workspace, such as src/Main.java.")
          String path,
      @JsonPropertyDescription("The file's whole content.") String content) {}

  /**
   * Defines the coder and the lead, both keeping their sessions in {@code store} (a forwarded
   * question is answered from the coder's saved turn), and returns the lead.
   *
   * @param workspace the directory the coder writes into, created on its first write
   * @param log gets a line for each file written
   */
  static Agent define(
      Baton baton, String model, SessionStore store, Path workspace, Consumer<String> log) {
    // The tool answers text, so a refusal (a response in place of the call) is text too: the user's
    // answer stands in for the tool's output and must fit its schema.
    Tool<FileWrite, String> writeFile =
        Tool.create(
            WRITE_FILE,
            "Writes a file into the workspace, replacing it if it exists.",
            FileWrite.class,
            String.class,
            (ctx, in) -> write(workspace, in, log));
    Agent coder =
        baton.defineAgent(
            "file_coder",
            InlinePrompt.builder()
                .model(model)
                .system(CODER_SYSTEM)
                .tools(writeFile)
                // Every call of a tool it does not list (write_file) waits for the user.
                .use(ToolApproval.allowing())
                .build(),
            AgentOptions.builder()
                .sessionStore(store)
                .description("Writes code into files in the workspace. Use for coding tasks.")
                .build());
    return baton.defineAgent(
        "lead",
        InlinePrompt.builder()
            .model(model)
            .system(LEAD_SYSTEM)
            .use(
                Team.delegationLog(log),
                Agents.builder().agents(coder.ref()).forwardInterrupts(true).build())
            .maxTurns(4)
            .build(),
        AgentOptions.builder().sessionStore(store).build());
  }

  /** Writes one file, refusing a path that leaves the workspace; says what it wrote. */
  private static String write(Path workspace, FileWrite in, Consumer<String> log) {
    Path root = workspace.toAbsolutePath().normalize();
    Path file = root.resolve(in.path()).normalize();
    if (!file.startsWith(root) || file.equals(root)) {
      throw BatonException.invalidArgument(
          "the path %s is not a file inside the workspace", in.path());
    }
    try {
      Files.createDirectories(file.getParent());
      byte[] content = in.content().getBytes(StandardCharsets.UTF_8);
      Files.write(file, content);
      log.accept("  ✎ wrote " + file);
      return "Wrote " + in.path() + " (" + content.length + " bytes).";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
