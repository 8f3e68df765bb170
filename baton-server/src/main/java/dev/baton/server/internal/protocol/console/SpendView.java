package dev.baton.server.internal.protocol.console;

import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.AgentUsage;
import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.internal.agent.LocalAgent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a snapshot's turn and its session spent, as the snapshot view shows it: the turn's usage
 * tree, with the current status of each task the tree recorded as running; the turn's spend by
 * agent and by agent and model; and the session's the same ways, over the turns up to the snapshot.
 *
 * <p>The turn's spend is its tree's total, as its delegation tree's root shows it. The session's
 * spend adds up the trees its conversation holds, one on each turn's final model message: the
 * snapshot's conversation is its own line of turns, so a branch (a continuation from an older row,
 * a failed turn's row) counts in its own rows and never in another line's. A background task counts
 * in the tree of the turn that reported it settled, so no call counts twice; one no later turn
 * reported settled counts only in its own session. The agent's own row of it is its calls over the
 * session, the row's usage ({@code spend}), when every turn recorded a tree. Not thread-safe: one
 * per request.
 */
final class SpendView {
  private final Registry registry;
  private final Predicate<String> serves;
  private final ActionContext context;

  /**
   * @param serves whether the console serves a local agent of this name, whose store it reads
   */
  SpendView(Registry registry, Predicate<String> serves, ActionContext context) {
    this.registry = registry;
    this.serves = serves;
    this.context = context;
  }

  /** Adds {@code usage}, {@code turnSpend} and {@code sessionSpend} to a snapshot's view. */
  void addTo(ObjectNode view, Turn turn) {
    AgentUsage tree = turn.tree();
    if (tree == null) {
      view.putNull("usage");
    } else {
      ObjectNode usage = (ObjectNode) Json.toTree(tree);
      markRunning(usage, turn);
      view.set("usage", usage);
    }
    view.set("turnSpend", turnSpend(turn, tree));
    List<Message> messages = turn.row().state() == null ? List.of() : turn.row().state().messages();
    view.set("sessionSpend", byAgent(recorded(messages)));
  }

  /**
   * The turn's spend as its delegation tree's root shows it ({@link Turn#spend}), by agent and
   * model when it recorded a tree; without one, it has its own calls and no rows. JSON null when it
   * recorded no usage.
   */
  private static JsonNode turnSpend(Turn turn, @Nullable AgentUsage tree) {
    if (tree != null) {
      return byAgent(List.of(tree));
    }
    GenerationUsage own = turn.spend();
    if (own == null) {
      return Json.nodes().nullNode();
    }
    ObjectNode body = Json.object();
    body.put("turns", 1);
    body.set("total", Views.spend(own));
    body.putArray("byAgent");
    body.putArray("byModel");
    return body;
  }

  /** The trees a conversation's turns recorded, oldest first. */
  private static List<AgentUsage> recorded(List<Message> messages) {
    List<AgentUsage> trees = new ArrayList<>();
    for (Message message : messages) {
      if (message.role() == Role.MODEL) {
        AgentUsage.of(message).ifPresent(trees::add);
      }
    }
    return trees;
  }

  /**
   * Usage trees by agent and by agent and model: {@code {"turns", "total", "byAgent": [{"agent",
   * "calls", "inputTokens", "outputTokens", "totalTokens"}], "byModel": [{"agent", "model",
   * "inputTokens", "outputTokens", "totalTokens"}]}}, each agent with a call, most tokens first;
   * {@code model} is null for the calls of a tree recorded before nodes named their models. JSON
   * null for no tree.
   */
  private static JsonNode byAgent(List<AgentUsage> trees) {
    if (trees.isEmpty()) {
      return Json.nodes().nullNode();
    }
    Map<String, List<GenerationUsage>> calls = new LinkedHashMap<>();
    Map<AgentModel, GenerationUsage> models = new LinkedHashMap<>();
    GenerationUsage total = GenerationUsage.EMPTY;
    List<AgentUsage> stack = new ArrayList<>(trees);
    while (!stack.isEmpty()) {
      AgentUsage node = stack.removeLast();
      calls.computeIfAbsent(node.agent(), agent -> new ArrayList<>()).addAll(node.calls());
      if (node.models().isEmpty() && !node.calls().isEmpty()) {
        models.merge(new AgentModel(node.agent(), null), node.usage(), GenerationUsage::plus);
      }
      node.models()
          .forEach(
              (model, usage) ->
                  models.merge(new AgentModel(node.agent(), model), usage, GenerationUsage::plus));
      stack.addAll(node.children());
    }
    for (AgentUsage tree : trees) {
      total = total.plus(tree.total());
    }
    ObjectNode body = Json.object();
    body.put("turns", trees.size());
    body.set("total", Views.spend(total));
    ArrayNode rows = body.putArray("byAgent");
    calls.entrySet().stream()
        // An agent whose calls count in another turn (a task running when this one ended) has none.
        .filter(entry -> !entry.getValue().isEmpty())
        .map(entry -> row(entry.getKey(), entry.getValue()))
        .sorted(MOST_TOKENS_FIRST)
        .forEach(rows::add);
    ArrayNode byModel = body.putArray("byModel");
    models.entrySet().stream()
        .map(entry -> modelRow(entry.getKey(), entry.getValue()))
        .sorted(MOST_TOKENS_FIRST)
        .forEach(byModel::add);
    return body;
  }

  private static final Comparator<JsonNode> MOST_TOKENS_FIRST =
      (a, b) -> Integer.compare(b.get("totalTokens").asInt(), a.get("totalTokens").asInt());

  private static ObjectNode row(String agent, List<GenerationUsage> calls) {
    GenerationUsage sum = GenerationUsage.EMPTY;
    for (GenerationUsage call : calls) {
      sum = sum.plus(call);
    }
    ObjectNode row = Json.object();
    row.put("agent", agent);
    row.put("calls", calls.size());
    row.setAll((ObjectNode) Views.spend(sum));
    return row;
  }

  /** A row of the spend by agent and model; a null model is one the tree did not record. */
  private record AgentModel(String agent, @Nullable String model) {}

  private static ObjectNode modelRow(AgentModel key, GenerationUsage sum) {
    ObjectNode row = Json.object();
    row.put("agent", key.agent());
    row.put("model", key.model());
    row.setAll((ObjectNode) Views.spend(sum));
    return row;
  }

  /**
   * Gives each task the tree recorded as running (a background task still running when the turn
   * ended) its status now, read from its agent's store as the request's principal: the row of the
   * task the turn reported in that session, or the session's latest row for a task of a deeper
   * turn. A task whose store the console does not read keeps no status.
   */
  private void markRunning(ObjectNode root, Turn turn) {
    List<ObjectNode> running = new ArrayList<>();
    List<JsonNode> stack = new ArrayList<>();
    root.path("children").forEach(stack::add);
    while (!stack.isEmpty()) {
      JsonNode node = stack.removeLast();
      if (node.path("finishReason").isMissingNode() || node.path("finishReason").isNull()) {
        running.add((ObjectNode) node);
      }
      node.path("children").forEach(stack::add);
    }
    if (running.isEmpty()) {
      return;
    }
    Map<String, String> reported = new HashMap<>();
    for (String taskId : TaskReports.of(turn.added()).keySet()) {
      TaskReports.Located located = TaskReports.locate(registry, taskId);
      if (located == null) {
        continue;
      }
      String agent = located.agent().name();
      AgentSnapshots snapshots = snapshots(agent);
      SessionSnapshot row =
          snapshots == null
              ? null
              : ConsoleAgents.orNull(() -> snapshots.get(located.snapshotId()));
      if (row != null && row.sessionId() != null) {
        reported.putIfAbsent(key(agent, row.sessionId()), Views.status(row));
      }
    }
    for (ObjectNode node : running) {
      String agent = node.path("agent").asString("");
      String sessionId = node.path("sessionId").asString("");
      String status = reported.get(key(agent, sessionId));
      if (status == null && !sessionId.isEmpty()) {
        AgentSnapshots snapshots = snapshots(agent);
        SessionSnapshot latest =
            snapshots == null ? null : ConsoleAgents.orNull(() -> snapshots.latest(sessionId));
        status = latest == null ? null : Views.status(latest);
      }
      if (status != null) {
        node.put("status", status);
      }
    }
  }

  private static String key(String agent, String sessionId) {
    return agent + "\n" + sessionId;
  }

  /** The snapshots of a served local agent with a store, or null for any other. */
  private @Nullable AgentSnapshots snapshots(String agent) {
    LocalAgent local = ConsoleAgents.agent(registry, serves, agent);
    return local == null ? null : local.snapshots(context);
  }
}
