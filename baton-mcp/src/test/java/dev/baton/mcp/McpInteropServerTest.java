package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.core.Json;
import dev.baton.server.BatonServer;
import dev.baton.server.ContextProviders;
import dev.baton.server.NodeFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Baton's MCP server driven by a client no one here wrote: the TypeScript SDK's ({@code
 * interop-client.js}), over stdio (spawning a child JVM that runs {@link InteropStdioMain}) and
 * over streamable HTTP (a {@code BatonServer} in this JVM, behind a bearer token).
 */
class McpInteropServerTest {
  /**
   * The client's steps: a tool, two flows (one whose string input MCP sees wrapped as {@code
   * input}), an agent, a prompt, two turns of an agent's session of {@link InteropApp}; then bad
   * arguments and an unknown tool.
   */
  private static final List<String> STEPS =
      steps(
          "--call add {\"a\": 2, \"b\": 3}",
          "--call shout {\"text\": \"quiet\"}",
          "--call whisper {\"input\": \"LOUD\"}",
          "--call researcher {\"task\": \"the tides\"}",
          "--prompt greeting {\"name\": \"Ann\"}",
          "--call chat {\"task\": \"hello\"}",
          "--call chat {\"task\": \"again\", \"sessionId\": \"$sessionId\"}",
          "--call add {\"a\": \"two\"}",
          "--call nope {}");

  /** Each step as the client's three arguments: option, name, JSON. */
  private static List<String> steps(String... steps) {
    List<String> args = new ArrayList<>();
    for (String step : steps) {
      args.addAll(List.of(step.split(" ", 3)));
    }
    return List.copyOf(args);
  }

  @BeforeAll
  static void node() {
    NodeFixture.require();
  }

  @Test
  @Timeout(120)
  void theTypeScriptClientUsesAToolAFlowAnAgentAndAPromptOverStdio() {
    String mark = Processes.mark();
    List<String> args = new ArrayList<>(STEPS);
    args.addAll(
        List.of(
            "stdio",
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Dbaton.test.mark=" + mark,
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            InteropStdioMain.class.getName()));

    Steps steps = run(args);

    assertServedEverything(steps);
    // The client closed the child's stdin and the child JVM is gone: serveStdio returned.
    Processes.assertNoneLeftAnywhere(mark);
  }

  @Test
  void theTypeScriptClientUsesAToolAFlowAnAgentAndAPromptOverHttpWithABearerToken() {
    try (Baton baton = InteropApp.build();
        McpServer mcp = withBearerToken(baton);
        BatonServer server = BatonServer.start("127.0.0.1", 0, mcp.handler())) {
      List<String> args = new ArrayList<>(List.of("--token", "s3cret", "--call", "whoami", "{}"));
      args.addAll(STEPS);
      args.addAll(List.of("http", server.uri().resolve("/mcp").toString()));

      Steps steps = run(args);

      assertServedEverything(steps);
      assertThat(steps.call("whoami").at("/structuredContent/user").stringValue())
          .as("the token's auth context reaches the tool: %s", steps.call("whoami"))
          .isEqualTo("ann");
    }
  }

  @Test
  void theTypeScriptClientWithoutTheTokenIsRefusedAtConnect() {
    try (Baton baton = InteropApp.build();
        McpServer mcp = withBearerToken(baton);
        BatonServer server = BatonServer.start("127.0.0.1", 0, mcp.handler())) {
      for (List<String> credentials : List.of(List.<String>of(), List.of("--token", "wrong"))) {
        List<String> args = new ArrayList<>(credentials);
        args.addAll(List.of("http", server.uri().resolve("/mcp").toString()));

        NodeFixture.Run run = NodeFixture.node("interop-client.js", args, Duration.ofSeconds(50));

        assertThat(run.exit()).as(run.stdout() + run.stderr()).isEqualTo(2);
        JsonNode connect = Json.parse(run.stdout().lines().findFirst().orElseThrow());
        assertThat(connect.at("/error/code").intValue()).as(connect.toString()).isEqualTo(401);
        assertThat(connect.at("/error/message").stringValue()).contains("UNAUTHENTICATED");
      }
    }
  }

  /** The application's MCP server, admitting only the bearer token "s3cret" (user "ann"). */
  private static McpServer withBearerToken(Baton baton) {
    return InteropApp.server(baton)
        .contextProvider(
            ContextProviders.bearerToken(
                token -> token.equals("s3cret") ? Map.of("user", "ann") : null))
        .build();
  }

  private static void assertServedEverything(Steps steps) {
    assertThat(steps.tools()).containsAll(List.of("add", "shout", "researcher"));
    JsonNode add = steps.call("add");
    assertThat(add.at("/structuredContent/sum").doubleValue()).as(add.toString()).isEqualTo(5.0);
    assertThat(add.path("isError").asBoolean(false)).isFalse();
    assertThat(text(steps.call("shout"))).contains("QUIET");
    assertThat(text(steps.call("whisper"))).isEqualTo("loud");
    assertThat(text(steps.call("researcher"))).isEqualTo("researched: the tides (turn 1)");
    // An agent with a session store: the second call continues the first one's session.
    List<JsonNode> chat = steps.calls("chat");
    String sessionId = chat.get(0).at("/result/structuredContent/sessionId").stringValue();
    assertThat(sessionId).isNotBlank();
    assertThat(text(chat.get(1).get("result"))).isEqualTo("researched: again (turn 2)");
    assertThat(chat.get(1).at("/result/structuredContent/sessionId").stringValue())
        .isEqualTo(sessionId);
    // Bad arguments: a tool error the client reads, with a public message and no stack trace.
    JsonNode bad = steps.calls("add").get(1).get("result");
    assertThat(bad.path("isError").asBoolean(false)).as(bad.toString()).isTrue();
    assertThat(text(bad)).contains("does not match its schema", "$.a").doesNotContain("\tat ");
    // An unknown tool: a JSON-RPC error or a tool error, either one the client reads.
    JsonNode unknown = steps.step("call", "nope");
    assertThat(unknown.has("error") || unknown.at("/result/isError").asBoolean(false))
        .as(unknown.toString())
        .isTrue();
    JsonNode greeting = steps.prompt("greeting");
    assertThat(greeting.at("/messages/0/content/text").stringValue())
        .as(greeting.toString())
        .contains("Hello, Ann!");
  }

  /** The text of a tool result's content. */
  private static String text(JsonNode result) {
    StringBuilder text = new StringBuilder();
    result.path("content").forEach(part -> text.append(part.path("text").asString("")));
    return text.toString();
  }

  private static Steps run(List<String> args) {
    NodeFixture.Run run = NodeFixture.node("interop-client.js", args, Duration.ofSeconds(100));
    assertThat(run.exit()).as("the client failed:\n" + run.stdout() + run.stderr()).isZero();
    return new Steps(run.stdout().lines().map(Json::parse).toList());
  }

  /** The JSON lines the TypeScript client printed, one per step. */
  record Steps(List<JsonNode> lines) {
    List<String> tools() {
      List<String> names = new ArrayList<>();
      step("tools", null).path("tools").forEach(t -> names.add(t.get("name").stringValue()));
      return names;
    }

    JsonNode call(String name) {
      return result(step("call", name));
    }

    /** Every call of a tool, in order. */
    List<JsonNode> calls(String name) {
      return lines.stream()
          .filter(line -> line.path("step").stringValue("").equals("call"))
          .filter(line -> line.path("name").stringValue("").equals(name))
          .toList();
    }

    JsonNode prompt(String name) {
      return result(step("prompt", name));
    }

    private static JsonNode result(JsonNode step) {
      JsonNode result = step.get("result");
      if (result == null) {
        throw new AssertionError("the step failed: " + step);
      }
      return result;
    }

    JsonNode step(String step, @Nullable String name) {
      return lines.stream()
          .filter(line -> line.path("step").stringValue("").equals(step))
          .filter(line -> name == null || line.path("name").stringValue("").equals(name))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no " + step + " " + name + " in " + lines));
    }
  }
}
