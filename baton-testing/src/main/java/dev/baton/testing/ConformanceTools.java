package dev.baton.testing;

import dev.baton.ai.Tool;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.internal.core.JsonSchemas;
import tools.jackson.databind.JsonNode;

/**
 * The tools Genkit's conformance suites expect, with their exact names and behaviour: {@code
 * testTool} answers "tool called"; {@code interruptTool} always interrupts; {@code restartTool}
 * interrupts with {@code {"requiresConfirmation": true}} unless restarted, then answers {@code
 * {"result": "confirmed: <action>"}}.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConformanceTools {
  private ConformanceTools() {}

  /** Registers all three tools. */
  public static void register(Registry registry) {
    registry.register(testTool());
    registry.register(interruptTool());
    registry.register(restartTool());
  }

  public static Tool<JsonNode, JsonNode> testTool() {
    return Tool.createJson(
        "testTool",
        "description",
        JsonSchemas.any(),
        JsonSchemas.any(),
        (ctx, input) -> Json.nodes().stringNode("tool called"));
  }

  public static Tool<JsonNode, JsonNode> interruptTool() {
    return Tool.createJson(
        "interruptTool",
        "always interrupts",
        JsonSchemas.any(),
        JsonSchemas.any(),
        (ctx, input) -> {
          throw ctx.interrupt();
        });
  }

  public static Tool<JsonNode, JsonNode> restartTool() {
    return Tool.createJson(
        "restartTool",
        "interrupts until restarted",
        JsonSchemas.any(),
        JsonSchemas.any(),
        (ctx, input) -> {
          if (!ctx.isResumed()) {
            throw ctx.interrupt(Json.object().put("requiresConfirmation", true));
          }
          return Json.object().put("result", "confirmed: " + input.path("action").asString());
        });
  }
}
