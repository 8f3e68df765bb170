package dev.baton.samples.mcpagents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.SessionState;
import dev.baton.ai.Tool;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.mcp.Mcp;
import dev.baton.mcp.McpClient;
import dev.baton.mcp.McpServer;
import dev.baton.server.BatonServer;
import dev.baton.server.NodeFixture;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The sample with the demo model: the folder guide calls the real filesystem server (the npm
 * package pinned in {@code src/test/js}), and the researcher answers MCP clients over streamable
 * HTTP and over stdio, as the README's Inspector commands reach it.
 */
class McpAgentsTest {
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

  @Test
  void theFolderGuideAnswersFromWhatTheFilesystemServersToolsRead(@TempDir Path dir)
      throws Exception {
    Path folder = dir.toRealPath();
    Files.writeString(folder.resolve("notes.md"), "# Ship on Friday\nThe rest is detail.\n");
    Files.writeString(folder.resolve("todo.txt"), "buy milk\n");

    try (Baton baton = McpAgents.baton(Map.of(), installedFilesystemServer(), folder, out)) {
      SessionState conversation = McpAgents.ask(baton, "What is in here?", null, out);
      McpAgents.ask(baton, "What does notes.md say?", conversation, out);
    }

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("[fs/list_directory] {\"path\":\"" + folder + "\"}")
        .contains("(demo) The folder holds 2 entries: ")
        .contains("[FILE] notes.md", "[FILE] todo.txt")
        .contains("[fs/read_text_file] {\"path\":\"" + folder.resolve("notes.md") + "\"}")
        .contains("(demo) notes.md says: # Ship on Friday");
  }

  @Test
  void servesTheResearcherOverStreamableHttp(@TempDir Path folder) {
    try (Baton baton = McpAgents.baton(Map.of(), McpAgents.FILESYSTEM_SERVER, folder, out);
        McpServer mcp = McpAgents.mcpServer(baton);
        BatonServer server = McpAgents.serveHttp(mcp, "127.0.0.1", 0, out)) {
      String endpoint = server.uri().resolve("/mcp").toString();
      assertThat(printed.toString(StandardCharsets.UTF_8))
          .contains("npx @modelcontextprotocol/inspector --cli " + endpoint + " --transport http");

      assertResearcherAnswers(Mcp.client("sample").http(server.uri().resolve("/mcp")).build());
    }
  }

  @Test
  void servesTheResearcherOverStdioInAJvmOfItsOwn(@TempDir Path folder) throws Exception {
    String classPath =
        Path.of("target", "classes").toAbsolutePath()
            + File.pathSeparator
            + Files.readString(Path.of("target", "runtime-path.txt")).strip();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    assertResearcherAnswers(
        Mcp.client("sample")
            .stdio(
                java, "-cp", classPath, McpAgents.class.getName(), "serve-stdio", folder.toString())
            .build());
  }

  /** Lists the sample's MCP tools and calls the researcher, through Baton's own MCP client. */
  private static void assertResearcherAnswers(McpClient sample) {
    try (Baton caller = Baton.builder().plugin(sample).build()) {
      assertThat(sample.tools()).extracting(Tool::name).containsExactly("sample/researcher");

      JsonNode answer =
          Tool.lookup(caller.registry(), "sample/researcher")
              .runJson(
                  caller.context(),
                  Json.object().put("task", "Why is the sky blue?"),
                  StreamCallback.discard());

      // The structured answer: the text, and the session an MCP client can continue.
      assertThat(answer.at("/output/text").asString())
          .as("%s", answer)
          .startsWith("(demo) Findings on Why is the sky blue?");
      assertThat(answer.at("/output/sessionId").asString()).as("%s", answer).isNotBlank();
    }
  }

  /** The filesystem server from the pinned npm package, run by node rather than fetched by npx. */
  private static List<String> installedFilesystemServer() {
    NodeFixture.require();
    return List.of(
        "node",
        NodeFixture.DIR
            .resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
            .toString());
  }
}
