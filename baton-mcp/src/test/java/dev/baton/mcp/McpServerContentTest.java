package dev.baton.mcp;

import static dev.baton.mcp.McpServerToolsTest.call;
import static dev.baton.mcp.McpServerToolsTest.properties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.Part;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolResult;
import dev.baton.core.Json;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What a served tool's schema and answer look like on the wire, beyond plain JSON. */
class McpServerContentTest {
  private static final String PNG = "iVBORw0KGgo=";

  private final ServedMcp served = new ServedMcp();
  private McpSyncClient client;

  @BeforeEach
  void serve() {
    served
        .baton
        .registry()
        .register(
            Tool.createMultipart(
                "snapshot",
                "A picture of a city, with a caption",
                null,
                Json.parse(
                    "{\"type\":\"object\",\"properties\":{\"caption\":{\"type\":\"string\"}}}"),
                (ctx, in) ->
                    new ToolResult.Output(
                        Json.parse("{\"caption\":\"Paris at night\"}"),
                        List.of(
                            Part.text("Paris at night"),
                            Part.media("data:image/png;base64," + PNG, "image/png")))));
    served.baton.defineJsonTool(
        "cities",
        "The cities' weather",
        Json.parse(
            """
            {"$schema": "https://json-schema.org/draft/2020-12/schema",
             "type": "array", "items": {"$ref": "#/$defs/city"},
             "$defs": {"city": {"type": "string"}}}"""),
        null,
        (ctx, in) -> Json.nodes().stringNode("sunny in " + in.size() + " cities"));
    served.serve(b -> b.tools("snapshot", "cities"));
    client = served.client();
  }

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void aMultipartToolAnswersItsPartsAsContentAndItsOutputAsStructuredContent() {
    CallToolResult result = client.callTool(call("snapshot", Map.of()));

    assertThat(result.isError()).isFalse();
    assertThat(result.content())
        .containsExactly(
            TextContent.builder("Paris at night").build(),
            ImageContent.builder(PNG, "image/png").build());
    assertThat(result.structuredContent()).isEqualTo(Map.of("caption", "Paris at night"));
  }

  @Test
  void aWrappedInputKeepsItsDefinitionsAtTheRootWhereItsReferencesFindThem() {
    McpSchema.Tool cities =
        client.listTools().tools().stream()
            .filter(tool -> tool.name().equals("cities"))
            .findFirst()
            .orElseThrow();

    assertThat(cities.inputSchema())
        .containsEntry("$defs", Map.of("city", Map.of("type", "string")))
        .doesNotContainKey("$schema");
    assertThat(properties(cities.inputSchema()))
        .containsEntry("input", Map.of("type", "array", "items", Map.of("$ref", "#/$defs/city")));
    JsonNode answer =
        Json.toTree(client.callTool(call("cities", Map.of("input", List.of("Paris")))).content());
    assertThat(answer.toString()).contains("sunny in 1 cities");
  }
}
