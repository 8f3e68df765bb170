package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.baton.Baton;
import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.server.BatonServer;
import dev.baton.server.ContextProviders;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The interop matrix's Baton-to-Baton cells: Baton's client against Baton's server running {@link
 * InteropApp}, over stdio (a child JVM) and over streamable HTTP behind a bearer token.
 */
class McpBatonToBatonTest {
  @Test
  @Timeout(120)
  void overStdioTheClientUsesTheServersToolFlowAgentAndPrompt() {
    String mark = Processes.mark();
    McpClient app =
        Mcp.client("app")
            .stdio(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dbaton.test.mark=" + mark,
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                InteropStdioMain.class.getName())
            .build();
    try (Baton baton = Baton.builder().plugin(app).build()) {
      assertUsesEverything(baton, app);
    }
    Processes.assertNoneLeft(mark);
  }

  @Test
  void overHttpTheClientSendsItsBearerTokenAndIsRefusedWithoutIt() {
    try (Baton served = InteropApp.build();
        McpServer mcp =
            InteropApp.server(served)
                .contextProvider(
                    ContextProviders.bearerToken(
                        token -> token.equals("s3cret") ? Map.of("user", "ann") : null))
                .build();
        BatonServer server = BatonServer.start("127.0.0.1", 0, mcp.handler())) {
      URI uri = server.uri().resolve("/mcp");
      McpClient app = Mcp.client("app").http(uri).bearerToken("s3cret").build();
      try (Baton baton = Baton.builder().plugin(app).build()) {
        assertUsesEverything(baton, app);
        assertThat(call(baton, "app/whoami", "{}").get("user").stringValue()).isEqualTo("ann");
      }

      try (McpClient stranger = Mcp.client("stranger").http(uri).build()) {
        BatonException refused = catchThrowableOfType(BatonException.class, stranger::tools);
        assertThat(refused).isNotNull();
        assertThat(refused.status()).as(refused.getMessage()).isEqualTo(Status.UNAUTHENTICATED);
      }
    }
  }

  private static void assertUsesEverything(Baton baton, McpClient app) {
    assertThat(app.tools())
        .extracting(tool -> tool.name())
        .contains("app/add", "app/shout", "app/researcher");
    assertThat(call(baton, "app/add", "{\"a\": 2, \"b\": 3}").get("sum").doubleValue())
        .isEqualTo(5.0);
    assertThat(call(baton, "app/shout", "{\"text\": \"quiet\"}").stringValue()).isEqualTo("QUIET");
    assertThat(call(baton, "app/researcher", "{\"task\": \"the tides\"}").toString())
        .contains("researched: the tides (turn 1)");
    List<Message> greeting =
        app.prompt("greeting")
            .render(baton.context(), Map.of("name", "Ann"), List.of())
            .build()
            .messages();
    assertThat(greeting).extracting(Message::text).contains("Hello, Ann!");
  }

  private static JsonNode call(Baton baton, String tool, String input) {
    return McpInteropClientTest.call(baton, tool, input);
  }
}
