package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Tool;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.server.NodeFixture;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * Baton's MCP client against a server no one here wrote: the TypeScript SDK's ({@code
 * interop-server.js}), over stdio and over streamable HTTP. Each test runs over both transports.
 */
class McpInteropClientTest {
  /** The echo tool's input schema exactly as the server lists it: 2020-12, with $defs and $ref. */
  private static final String ECHO_SCHEMA =
      """
      {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
       "properties": {"text": {"type": "string", "description": "what to echo"},
                      "style": {"$ref": "#/$defs/Style"}},
       "required": ["text"], "additionalProperties": false,
       "$defs": {"Style": {"type": "object", "properties": {"upper": {"type": "boolean"}}}}}
      """;

  /** How the test reaches the server. */
  enum Transport {
    STDIO,
    HTTP
  }

  private NodeFixture.@Nullable Server httpServer;
  private @Nullable McpClient client;
  private @Nullable Baton baton;

  @BeforeAll
  static void node() {
    NodeFixture.require();
  }

  @AfterEach
  void close() {
    if (baton != null) {
      baton.close();
    }
    if (httpServer != null) {
      httpServer.close();
    }
  }

  /**
   * A Baton whose plugin is a client named "ts" of the TypeScript server over {@code transport}.
   */
  private Baton connect(Transport transport, Function<McpClient.Builder, McpClient.Builder> more) {
    McpClient.Builder builder = Mcp.client("ts");
    builder =
        switch (transport) {
          case STDIO -> builder.stdio("node", script("interop-server.js"), "stdio");
          case HTTP -> {
            httpServer = NodeFixture.server("interop-server.js", "http");
            yield builder.http(URI.create("http://127.0.0.1:" + httpServer.port() + "/mcp"));
          }
        };
    client = more.apply(builder).build();
    baton = Baton.builder().plugin(client).build();
    return baton;
  }

  private Baton connect(Transport transport) {
    return connect(transport, b -> b);
  }

  static String script(String name) {
    return NodeFixture.DIR.resolve(name).toString();
  }

  /**
   * Calls a tool as a generate call's tool loop does; its output. An MCP tool is multipart: it
   * answers {@code {"output": …, "content": […]}}, the content being the MCP result's parts.
   */
  static JsonNode call(Baton baton, String tool, String input) {
    JsonNode answer =
        Tool.lookup(baton.registry(), tool)
            .runJson(baton.context(), Json.parse(input), StreamCallback.discard());
    assertThat(answer.has("content")).as("multipart: %s", answer).isTrue();
    return answer.get("output");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void listsTheServersToolsUnderTheClientsNameWithTheirSchemasAsListed(Transport transport) {
    Baton baton = connect(transport);

    Map<String, Tool<?, ?>> tools =
        Stream.of("echo", "add", "fail", "sleep")
            .collect(
                Collectors.toMap(
                    name -> name, name -> Tool.lookup(baton.registry(), "ts/" + name)));

    assertThat(tools.get("echo").definition().description()).isEqualTo("Answers its text.");
    assertThat(
            Json.jsonEquals(tools.get("echo").definition().inputSchema(), Json.parse(ECHO_SCHEMA)))
        .as(
            "echo's 2020-12 schema, $defs and $ref included, reaches Baton unchanged: %s",
            tools.get("echo").definition().inputSchema())
        .isTrue();
    assertThat(tools.get("add").isMultipart()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void callsAToolWhoseSchemaUses2020DefsAndRefs(Transport transport) {
    Baton baton = connect(transport);

    JsonNode plain = call(baton, "ts/echo", "{\"text\": \"hello\"}");
    JsonNode styled = call(baton, "ts/echo", "{\"text\": \"hello\", \"style\": {\"upper\": true}}");

    assertThat(plain.stringValue()).isEqualTo("hello");
    assertThat(styled.stringValue()).isEqualTo("HELLO");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aToolWithAnOutputSchemaAnswersItsStructuredContent(Transport transport) {
    Baton baton = connect(transport);

    JsonNode sum = call(baton, "ts/add", "{\"a\": 2, \"b\": 3.5}");

    assertThat(sum.get("sum").doubleValue()).isEqualTo(5.5);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aToolErrorIsTheToolsAnswerNotAFailure(Transport transport) {
    Baton baton = connect(transport);

    JsonNode answer = call(baton, "ts/fail", "{\"why\": \"no disk\"}");

    assertThat(answer.get("isError").booleanValue()).isTrue();
    assertThat(answer.get("error").stringValue()).isEqualTo("the tool failed: no disk");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void inputThatBreaksTheListedSchemaIsRefusedBeforeTheServerSeesIt(Transport transport) {
    Baton baton = connect(transport);

    assertThatThrownBy(() -> call(baton, "ts/echo", "{\"text\": 42, \"extra\": true}"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aCallLongerThanTheClientsTimeoutIsDeadlineExceeded(Transport transport) {
    Baton baton = connect(transport, b -> b.timeout(Duration.ofSeconds(2)));

    long start = System.nanoTime();
    assertThatThrownBy(() -> call(baton, "ts/sleep", "{\"ms\": 30000}"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    // The connection survives the timeout: the next call answers.
    assertThat(call(baton, "ts/echo", "{\"text\": \"still here\"}").stringValue())
        .isEqualTo("still here");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void anMcpPromptRendersAsABatonPrompt(Transport transport) {
    Baton baton = connect(transport);

    ExecutablePrompt greet = Objects.requireNonNull(client).prompt("greet");
    List<Message> messages =
        greet.render(baton.context(), Map.of("name", "Ann"), List.of()).build().messages();

    assertThat(messages).extracting(Message::text).contains("Hello, Ann!");
  }
}
