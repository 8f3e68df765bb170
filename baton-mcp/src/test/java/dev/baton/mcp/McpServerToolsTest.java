package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class McpServerToolsTest {
  record Forecast(String city, int days) {}

  record Report(String city, double tempC) {}

  private final ServedMcp served = new ServedMcp();
  private McpSyncClient client;

  @BeforeEach
  void serve() {
    served.baton.defineTool(
        "weather",
        "The weather in a city",
        Forecast.class,
        Report.class,
        (ctx, in) -> {
          if (in.city().equals("Atlantis")) {
            throw BatonException.of(Status.NOT_FOUND, "no weather station in %s", in.city());
          }
          if (in.city().equals("Moria")) {
            throw BatonException.internal("database password 'hunter2' was rejected", null);
          }
          if (in.city().equals("Erebor")) {
            throw new IllegalStateException("socket at 10.0.0.7 closed");
          }
          return new Report(in.city(), 21.5);
        });
    served.baton.defineFlow("shout", String.class, String.class, (ctx, in) -> in.toUpperCase());
    served.serve(b -> b.tools("weather").flows("shout"));
    client = served.client();
  }

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void toolsListShowsEachActionWithItsSchemas() {
    Map<String, Tool> tools =
        client.listTools().tools().stream()
            .collect(Collectors.toMap(Tool::name, Function.identity()));

    assertThat(tools).containsOnlyKeys("weather", "shout");
    Tool weather = tools.get("weather");
    assertThat(weather.description()).isEqualTo("The weather in a city");
    assertThat(weather.inputSchema()).containsEntry("type", "object");
    assertThat(properties(weather.inputSchema())).containsKeys("city", "days");
    assertThat(weather.outputSchema()).containsEntry("type", "object");
    assertThat(properties(weather.outputSchema())).containsKeys("city", "tempC");
    // A string input is wrapped: MCP takes object schemas only.
    Tool shout = tools.get("shout");
    assertThat(shout.inputSchema())
        .containsEntry("type", "object")
        .containsEntry("required", List.of("input"));
    assertThat(properties(shout.inputSchema())).containsEntry("input", Map.of("type", "string"));
    assertThat(shout.outputSchema()).isNull();
  }

  @Test
  void aToolCallAnswersItsOutputAsTextAndStructuredContent() {
    CallToolResult result = client.callTool(call("weather", Map.of("city", "Paris", "days", 1)));

    assertThat(result.isError()).isFalse();
    assertThat(result.structuredContent()).isEqualTo(Map.of("city", "Paris", "tempC", 21.5));
    assertThat(text(result)).contains("\"city\":\"Paris\"").contains("21.5");
  }

  @Test
  void aFlowCallTakesItsWrappedInputAndAnswersText() {
    CallToolResult result = client.callTool(call("shout", Map.of("input", "hi")));

    assertThat(result.isError()).isFalse();
    assertThat(text(result)).isEqualTo("HI");
    assertThat(result.structuredContent()).isNull();
  }

  @Test
  void aPublicErrorIsAnErrorResultWithItsMessage() {
    CallToolResult result = client.callTool(call("weather", Map.of("city", "Atlantis", "days", 1)));

    assertThat(result.isError()).isTrue();
    assertThat(text(result)).isEqualTo("no weather station in Atlantis");
  }

  @Test
  void anInternalErrorIsAnErrorResultWithoutItsMessage() {
    CallToolResult internal = client.callTool(call("weather", Map.of("city", "Moria", "days", 1)));
    CallToolResult unexpected =
        client.callTool(call("weather", Map.of("city", "Erebor", "days", 1)));

    for (CallToolResult result : List.of(internal, unexpected)) {
      assertThat(result.isError()).isTrue();
      assertThat(text(result))
          .isEqualTo(BatonException.genericMessage(Status.INTERNAL))
          .doesNotContain("hunter2", "10.0.0.7", "Exception", "at dev.");
    }
  }

  @Test
  void badArgumentsAreAnErrorResultThatSaysWhatIsWrong() {
    CallToolResult result = client.callTool(call("weather", Map.of("city", 42)));

    assertThat(result.isError()).isTrue();
    assertThat(text(result)).containsIgnoringCase("city");
  }

  @Test
  void buildingRefusesAnActionThatDoesNotExist() {
    assertThatThrownBy(() -> Mcp.server(served.baton).flows("missing").build())
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND))
        .hasMessageContaining("missing");
  }

  static CallToolRequest call(String tool, Map<String, ?> arguments) {
    return CallToolRequest.builder(tool).arguments(new HashMap<>(arguments)).build();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> properties(Map<String, Object> schema) {
    return (Map<String, Object>) schema.get("properties");
  }

  static String text(CallToolResult result) {
    assertThat(result.content()).hasSize(1);
    return ((TextContent) result.content().getFirst()).text();
  }
}
