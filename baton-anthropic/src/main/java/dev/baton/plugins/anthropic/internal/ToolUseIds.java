package dev.baton.plugins.anthropic.internal;

import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolResponse;
import java.util.HashMap;
import java.util.Map;

/**
 * The ids of one request body's {@code tool_use} and {@code tool_result} blocks. A request or a
 * response with a ref keeps it. One without (another provider's history, or one built by hand) gets
 * {@code <name>_<turn>_<n>}: the assistant turn it belongs to, counted from the start, and its
 * place among that turn's refless calls of that tool. A tool message answers the assistant turn
 * before it, in order, so the n-th refless response for a tool gets the id of the n-th refless
 * request for it, and two calls of one tool in a turn get ids of their own.
 *
 * <p>Not thread-safe: one per request body, fed the turns in order.
 */
final class ToolUseIds {
  private int turn;
  private final Map<String, Integer> requests = new HashMap<>();
  private final Map<String, Integer> responses = new HashMap<>();

  /** Starts the next assistant turn: the calls that follow are its. */
  void nextTurn() {
    turn++;
    requests.clear();
    responses.clear();
  }

  String ofRequest(ToolRequest request) {
    return request.ref() != null ? request.ref() : id(request.name(), requests);
  }

  String ofResponse(ToolResponse response) {
    return response.ref() != null ? response.ref() : id(response.name(), responses);
  }

  private String id(String name, Map<String, Integer> counts) {
    return name + "_" + turn + "_" + counts.merge(name, 1, Integer::sum);
  }
}
