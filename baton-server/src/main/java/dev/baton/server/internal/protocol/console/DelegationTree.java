package dev.baton.server.internal.protocol.console;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.AgentUsage;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.internal.agent.RemoteAgent;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sub-agent tasks of a turn, as a tree. The Agents middleware answers each delegation, each
 * {@code continue_task} and each background report with the task's ID, {@code
 * <agent>:<snapshotId>}, in the tool response it adds to the orchestrator's conversation: so the
 * tasks of a turn are the IDs in the tool responses of the messages the turn added, and each one's
 * state is the snapshot it names in the sub-agent's store, read as the request's principal (whose
 * the sub-agent's sessions are, since the delegation ran under the orchestrator's context). Its own
 * tasks come from its messages the same way. A remote sub-agent's snapshot is in another process:
 * it is a leaf with its server's URL and the status its last report gave.
 *
 * <p>A task is {@code background} when its delegation answered at once with it pending. Its spend
 * is its session's usage as its snapshot records it; the turn's own is the total of the usage tree
 * it recorded, when the agent collects one, or its session's usage otherwise. Not thread-safe: one
 * per request.
 */
final class DelegationTree {
  /** How many tasks a tree shows at most, so that a runaway fan-out still answers quickly. */
  private static final int MAX_TASKS = 500;

  private final Registry registry;
  private final Predicate<String> serves;
  private final ActionContext context;
  private final Instant now;
  private final Set<String> seen = new HashSet<>();

  /** A task as the orchestrator's tool responses report it. */
  private record Reported(@Nullable String name, boolean background, @Nullable String status) {}

  /**
   * @param serves whether the console serves a local agent of this name, whose tasks it follows
   */
  DelegationTree(Registry registry, Predicate<String> serves, ActionContext context, Instant now) {
    this.registry = registry;
    this.serves = serves;
    this.context = context;
    this.now = now;
  }

  /** The tree of a turn: its own node, with its tasks under it. */
  ObjectNode of(String agent, AgentSnapshots snapshots, SessionSnapshot turn) {
    seen.add(agent + ":" + turn.snapshotId());
    SessionState state = turn.state();
    AgentUsage tree = state == null ? null : Views.usageTree(state.messages());
    ObjectNode root =
        node(
            agent + ":" + turn.snapshotId(),
            agent,
            null,
            turn,
            false,
            tree != null ? tree.total() : state == null ? null : state.usage());
    root.set("children", children(snapshots, turn));
    return root;
  }

  private ArrayNode children(AgentSnapshots snapshots, SessionSnapshot turn) {
    ArrayNode children = Json.nodes().arrayNode();
    reportedTasks(turnMessages(snapshots, turn))
        .forEach(
            (taskId, reported) -> {
              if (seen.size() < MAX_TASKS && seen.add(taskId)) {
                children.add(task(taskId, reported));
              }
            });
    return children;
  }

  private ObjectNode task(String taskId, Reported reported) {
    Agent agent = null;
    int split = -1;
    // The agent's name may itself hold ':': the longest name that exists wins.
    for (int at = taskId.lastIndexOf(':'); at > 0; at = taskId.lastIndexOf(':', at - 1)) {
      if (registry.lookup(ActionType.AGENT, taskId.substring(0, at)).orElse(null)
          instanceof Agent found) {
        agent = found;
        split = at;
        break;
      }
    }
    if (agent == null) {
      int colon = taskId.indexOf(':');
      return leaf(taskId, colon > 0 ? taskId.substring(0, colon) : taskId, reported, null);
    }
    if (agent instanceof RemoteAgent remote) {
      return leaf(taskId, agent.name(), reported, publicUrl(remote.url()));
    }
    if (!serves.test(agent.name())) {
      return leaf(taskId, agent.name(), reported, null);
    }
    AgentSnapshots snapshots = agent.snapshots(context);
    SessionSnapshot row;
    try {
      row = snapshots.get(taskId.substring(split + 1));
    } catch (BatonException e) {
      if (e.status() != Status.NOT_FOUND && e.status() != Status.FAILED_PRECONDITION) {
        throw e;
      }
      return leaf(taskId, agent.name(), reported, null);
    }
    SessionState state = row.state();
    ObjectNode node =
        node(
            taskId,
            agent.name(),
            reported.name(),
            row,
            reported.background(),
            state == null ? null : state.usage());
    node.set("children", children(snapshots, row));
    return node;
  }

  private ObjectNode node(
      String taskId,
      String agent,
      @Nullable String name,
      SessionSnapshot row,
      boolean background,
      @Nullable GenerationUsage spend) {
    ObjectNode node = Json.object();
    node.put("taskId", taskId);
    node.put("agent", agent);
    node.put("name", name);
    String status = Views.status(row);
    node.put("status", status);
    node.put("background", background);
    node.put("startedAt", row.createdAt().toString());
    Instant end = Views.isLive(status) || row.updatedAt() == null ? now : row.updatedAt();
    node.put("durationMs", Math.max(0, Duration.between(row.createdAt(), end).toMillis()));
    node.set("spend", Views.spend(spend));
    node.putNull("remoteUrl");
    return node;
  }

  /** A task whose snapshot the console cannot read: a remote one, or one no longer stored. */
  private static ObjectNode leaf(
      String taskId, String agent, Reported reported, @Nullable String remoteUrl) {
    ObjectNode node = Json.object();
    node.put("taskId", taskId);
    node.put("agent", agent);
    node.put("name", reported.name());
    node.put("status", reported.status() == null ? "unknown" : reported.status());
    node.put("background", reported.background());
    node.putNull("startedAt");
    node.putNull("durationMs");
    node.putNull("spend");
    node.put("remoteUrl", remoteUrl);
    node.putArray("children");
    return node;
  }

  /**
   * The messages a row's turn added: those past its parent's conversation, or all of them when it
   * has no parent the principal can read.
   */
  private static List<Message> turnMessages(AgentSnapshots snapshots, SessionSnapshot row) {
    List<Message> messages = row.state() == null ? List.of() : row.state().messages();
    if (row.parentId() == null) {
      return messages;
    }
    try {
      SessionSnapshot parent = snapshots.get(row.parentId());
      int before = parent.state() == null ? 0 : parent.state().messages().size();
      return before <= messages.size() ? messages.subList(before, messages.size()) : messages;
    } catch (BatonException e) {
      if (e.status() != Status.NOT_FOUND) {
        throw e;
      }
      return messages;
    }
  }

  /** A remote agent's URL without what may be a secret: its user info, query and fragment. */
  private static String publicUrl(URI url) {
    try {
      return new URI(url.getScheme(), null, url.getHost(), url.getPort(), url.getPath(), null, null)
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("a part of a valid URI makes a valid URI", e);
    }
  }

  /** The task IDs the tool responses report, in the order first reported, with what they say. */
  private static Map<String, Reported> reportedTasks(List<Message> messages) {
    Map<String, Reported> tasks = new LinkedHashMap<>();
    for (Message message : messages) {
      if (message.role() != Role.TOOL) {
        continue;
      }
      for (ToolResponsePart part : message.toolResponses()) {
        JsonNode output = part.toolResponse().output();
        if (output != null) {
          collect(output, tasks, 0);
        }
      }
    }
    return tasks;
  }

  /**
   * Collects the objects with a {@code taskId} in a tool's output: the output itself (a
   * delegation's or continuation's result), or the reports in its arrays (a check or a wait).
   */
  private static void collect(JsonNode node, Map<String, Reported> tasks, int depth) {
    if (depth > 3) {
      return;
    }
    if (node.isArray()) {
      node.forEach(element -> collect(element, tasks, depth + 1));
      return;
    }
    if (!node.isObject()) {
      return;
    }
    JsonNode taskId = node.get("taskId");
    if (taskId != null && taskId.isString() && !taskId.asString().isEmpty()) {
      String status = node.path("status").isString() ? node.get("status").asString() : null;
      String name = node.path("name").isString() ? node.get("name").asString() : null;
      tasks.merge(
          taskId.asString(),
          // The first report of a task is its delegation's: pending there means background.
          new Reported(name, "pending".equals(status), status),
          (first, later) ->
              new Reported(
                  first.name() != null ? first.name() : later.name(),
                  first.background(),
                  later.status() != null ? later.status() : first.status()));
      return;
    }
    node.forEach(child -> collect(child, tasks, depth + 1));
  }
}
