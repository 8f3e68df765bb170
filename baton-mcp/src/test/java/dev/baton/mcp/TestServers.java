package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.server.NodeFixture;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The Node MCP servers of these tests (src/test/js/client-*.js), and a tool loop to call them. */
final class TestServers {
  private TestServers() {}

  /** A client of the stdio test server, Node and its packages installed first. */
  static McpClient.Builder stdio(String name) {
    NodeFixture.require();
    return Mcp.client(name).stdio("node", script("client-stdio-server.js"));
  }

  static String script(String name) {
    return NodeFixture.DIR.resolve(name).toString();
  }

  /**
   * Has the model call {@code tool} once through {@code baton}'s tool loop, with {@code tools}
   * offered, and returns the tool's answer as the model received it.
   */
  static ToolResponse callThroughLoop(
      Baton baton, ProgrammableModel model, List<Tool<?, ?>> tools, String tool, Object input) {
    model.respond(
        ModelResponse.of(
            new Message(Role.MODEL, List.of(Part.toolRequest(tool, "r1", Json.toTree(input)))),
            FinishReason.STOP));
    model.respondText("done");
    int before = model.calls();
    baton.generate(GenerateOptions.builder().model(model.name()).prompt("go").tools(tools).build());
    ModelRequest second = model.requests().get(before + 1);
    Message last = second.messages().get(second.messages().size() - 1);
    assertThat(last.role()).isEqualTo(Role.TOOL);
    return ((ToolResponsePart) last.content().get(0)).toolResponse();
  }

  /** The text a tool response's output holds. */
  static String outputText(ToolResponse response) {
    JsonNode output = response.output();
    assertThat(output).isNotNull();
    return output.asString();
  }
}
