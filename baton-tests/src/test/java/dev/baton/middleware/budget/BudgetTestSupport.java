package dev.baton.middleware.budget;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Json;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * What the Budget tests share: an instance with the experimental plugin, the programmable model
 * {@code pm} whose scripted answers report usage, an {@code echo} tool that counts its runs, and
 * short ways to write usage, answers and budgets.
 */
abstract class BudgetTestSupport {
  final Baton baton = Baton.builder().experimental().build();
  final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  final AtomicInteger echoRuns = new AtomicInteger();
  final Tool<JsonNode, JsonNode> echo =
      baton.defineJsonTool(
          "echo",
          "Echoes its input",
          null,
          null,
          (ctx, in) -> {
            echoRuns.incrementAndGet();
            return in;
          });

  /** Usage with only a total. */
  static GenerationUsage total(int tokens) {
    return GenerationUsage.builder().totalTokens(tokens).build();
  }

  /** Usage reporting a cost. */
  static GenerationUsage cost(double cost) {
    return GenerationUsage.builder().custom(Map.of("cost", cost)).build();
  }

  static ModelResponse answer(String text, GenerationUsage usage) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP).withUsage(usage);
  }

  /** A model turn that calls tools, reporting {@code usage}. */
  static ModelResponse calls(GenerationUsage usage, ToolRequestPart... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP)
        .withUsage(usage);
  }

  static ToolRequestPart echoCall(String ref) {
    return Part.toolRequest("echo", ref, Json.object().put("ref", ref));
  }

  static Budget capTotal(int tokens) {
    return Budget.perRun(total(tokens));
  }

  /** A generate call on {@code pm} with the echo tool and the given middleware. */
  GenerateOptions.Builder options(Middleware... use) {
    return GenerateOptions.builder().model("pm").prompt("go").tools(echo).use(use);
  }

  GenerateResponse generate(Middleware... use) {
    return baton.generate(options(use).build());
  }

  /** The budget report a stop carries in its details. */
  static BudgetExceeded report(BudgetExceededException stop) {
    return Json.convert(stop.details(), BudgetExceeded.class);
  }
}
