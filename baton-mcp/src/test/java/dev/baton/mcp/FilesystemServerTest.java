package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOutput;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.Json;
import dev.baton.server.NodeFixture;
import dev.baton.testing.ProgrammableModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A published MCP server, {@code @modelcontextprotocol/server-filesystem}, as a Baton agent's
 * tools: the agent, on a programmable model, lists a folder, reads a file, and asks for a file
 * outside the allowed folder, whose refusal reaches the model as the tool's answer.
 */
class FilesystemServerTest {
  @TempDir Path allowed;
  @TempDir Path outside;

  @BeforeAll
  static void node() {
    NodeFixture.require();
  }

  @Test
  void anAgentListsReadsAndIsRefusedOutsideTheAllowedFolder() throws IOException {
    Path allowedDir = allowed.toRealPath();
    Files.writeString(allowedDir.resolve("notes.txt"), "the tide turns at six\n");
    Files.createDirectory(allowedDir.resolve("drafts"));
    Path secret = Files.writeString(outside.toRealPath().resolve("secret.txt"), "nope");
    McpClient fs =
        Mcp.client("fs")
            .stdio(
                "node",
                NodeFixture.DIR
                    .resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
                    .toString(),
                allowedDir.toString())
            .build();

    try (Baton baton = Baton.builder().experimental().plugin(fs).build()) {
      ProgrammableModel model = ProgrammableModel.define(baton.registry(), "model");
      model.respond(
          callTool("fs/list_directory", Map.of("path", allowedDir.toString())),
          callTool("fs/read_text_file", Map.of("path", allowedDir.resolve("notes.txt").toString())),
          callTool("fs/read_text_file", Map.of("path", secret.toString())));
      model.respondText("done");
      Agent agent =
          baton.defineAgent(
              "librarian",
              InlinePrompt.builder()
                  .model("model")
                  .system("Look after the files.")
                  .toolNames("fs/list_directory", "fs/read_text_file")
                  .build());

      AgentOutput output = agent.runText("what is in the folder?");

      assertThat(output.message().text()).isEqualTo("done");
      List<ModelRequest> requests = model.requests();
      assertThat(requests).hasSize(4);
      assertThat(requests.get(0).tools())
          .extracting(tool -> tool.name())
          .containsExactlyInAnyOrder("fs/list_directory", "fs/read_text_file");
      assertThat(toolAnswer(requests.get(1))).contains("[FILE] notes.txt", "[DIR] drafts");
      assertThat(toolAnswer(requests.get(2))).contains("the tide turns at six");
      assertThat(toolAnswer(requests.get(3)))
          .contains("Access denied")
          .contains(secret.toString())
          .doesNotContain("nope");
    }
    // The allowed folder is this test's own, so it marks the server this test started.
    Processes.assertNoneLeft(allowedDir.toString());
  }

  private static ModelResponse callTool(String name, Map<String, String> input) {
    return ModelResponse.of(
        new Message(Role.MODEL, List.of(Part.toolRequest(name, "r1", Json.toTree(input)))),
        FinishReason.STOP);
  }

  /** What the model was told the last tool call answered, as JSON text. */
  private static String toolAnswer(ModelRequest request) {
    Message last = request.messages().get(request.messages().size() - 1);
    return Json.write(last.toolResponses().get(0).toolResponse().output());
  }
}
