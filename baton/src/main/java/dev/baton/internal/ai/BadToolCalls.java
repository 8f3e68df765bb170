package dev.baton.internal.ai;

import dev.baton.ai.Tool;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResult;
import dev.baton.core.Json;
import dev.baton.internal.core.SchemaValidator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The answers a generate call gives to the model's bad tool calls when a middleware asked for them
 * ({@link GenerateRun#answerBadToolCalls}), instead of failing: a call to a tool the call does not
 * offer is answered with the names of the tools it offers, and a call whose input fails the tool's
 * input schema with what is wrong, by JSON path. The answer is the call's tool response, so the
 * model reads it on its next turn and may call again; the tool never runs, and no tool hook sees
 * the call.
 *
 * <p>At most {@code maxRetries} model responses with bad calls are answered in one generate call.
 * Past that a bad call is run as it would be without answers, and fails the call as Genkit's does:
 * {@code NOT_FOUND} for an unknown tool, {@code INVALID_ARGUMENT} for bad input.
 *
 * <p>Used by one generate loop, on its thread. Each tool's schema is compiled once per generate
 * call, when the model first calls the tool.
 */
final class BadToolCalls {
  private final Map<String, Tool<?, ?>> tools;
  private final List<String> offered;
  private final int maxRetries;
  private final Map<String, SchemaValidator> validators = new HashMap<>();
  private int answered;

  /**
   * Answers for one generate call.
   *
   * @param tools the tools the call offers, by name, in the order the model is told them
   */
  BadToolCalls(Map<String, Tool<?, ?>> tools, int maxRetries) {
    this.tools = Map.copyOf(tools);
    this.offered = List.copyOf(tools.keySet());
    this.maxRetries = maxRetries;
  }

  /**
   * The answers to the bad calls among one model response's calls, by position; empty when every
   * call is good, or when the retries are spent and the bad calls must fail as they would without
   * answers.
   */
  Map<Integer, ToolResult> answer(List<ToolRequestPart> calls) {
    Map<Integer, ToolResult> answers = new HashMap<>();
    for (int i = 0; i < calls.size(); i++) {
      ObjectNode problem = problem(calls.get(i).toolRequest());
      if (problem != null) {
        answers.put(i, ToolResult.output(problem));
      }
    }
    if (answers.isEmpty() || answered >= maxRetries) {
      return Map.of();
    }
    answered++;
    return answers;
  }

  /** What the model is told about a call, or null when the call is good. */
  private @Nullable ObjectNode problem(ToolRequest call) {
    Tool<?, ?> tool = tools.get(call.name());
    if (tool == null) {
      ObjectNode answer = Json.object();
      answer.put(
          "error",
          offered.isEmpty()
              ? "There is no tool named \"%s\": no tools are offered here, so answer without one."
                  .formatted(call.name())
              : "There is no tool named \"%s\". Call one of offeredTools instead."
                  .formatted(call.name()));
      ArrayNode names = answer.putArray("offeredTools");
      offered.forEach(names::add);
      return answer;
    }
    JsonNode input = call.input() == null ? Json.nodes().nullNode() : call.input();
    List<SchemaValidator.Violation> violations =
        validators
            .computeIfAbsent(
                call.name(), name -> SchemaValidator.compile(tool.definition().inputSchema()))
            .violations(input, "input of " + tool.type().key(tool.name()));
    if (violations.isEmpty()) {
      return null;
    }
    ObjectNode answer = Json.object();
    answer.put(
        "error",
        "The input does not match the input schema of tool \"%s\". Fix it and call the tool again."
            .formatted(call.name()));
    ArrayNode errors = answer.putArray("validationErrors");
    for (SchemaValidator.Violation violation : violations) {
      errors.addObject().put("path", violation.path()).put("message", violation.message());
    }
    return answer;
  }
}
