package dev.baton.server.internal.protocol.console;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.internal.agent.RemoteAgent;
import dev.baton.server.internal.protocol.console.TaskReports.Located;
import dev.baton.server.internal.protocol.console.TaskReports.Reported;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sub-agent tasks of a turn, as a tree. The tasks of a turn are those the tool responses of the
 * messages it added report ({@link TaskReports}), and each one's state is the snapshot it names in
 * the sub-agent's store, read as the request's principal (whose the sub-agent's sessions are, since
 * the delegation ran under the orchestrator's context). Its own tasks come from its messages the
 * same way. A continuation ({@code continue_task}: a new turn in a task's session, from the task's
 * row) goes under the task it continues when the tree shows it. A remote sub-agent's snapshot is in
 * another process: it is a leaf with its server's URL and the status its last report gave.
 *
 * <p>A task is {@code background} when its delegation answered at once with it pending. Every
 * node's spend is its turn's ({@link Turn#spend}), never its session's, so the root's is the total
 * of the usage tree the snapshot view shows for the same turn. A node's duration is its row's time
 * from creation to its last update, which only a row written more than once knows (a detached run,
 * pending first): a turn's row written once, at the turn's end, has none rather than 0. Not
 * thread-safe: one per request.
 */
final class DelegationTree {
  /** How many tasks a tree shows at most, so that a runaway fan-out still answers quickly. */
  private static final int MAX_TASKS = 500;

  private final Registry registry;
  private final Predicate<String> serves;
  private final ActionContext context;
  private final Instant now;
  private final Set<String> seen = new HashSet<>();
  // The tasks read so far, by ID: a continuation goes under the task it continues.
  private final Map<String, ObjectNode> shown = new HashMap<>();

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
  ObjectNode of(String agent, AgentSnapshots snapshots, SessionSnapshot row) {
    String taskId = agent + ":" + row.snapshotId();
    seen.add(taskId);
    return node(taskId, agent, null, false, snapshots, row, Json.nodes().arrayNode());
  }

  /** Adds a reported task to {@code siblings}, or under the task it continues. */
  private void task(String taskId, Reported reported, ArrayNode siblings) {
    Located located = TaskReports.locate(registry, taskId);
    if (located == null) {
      int colon = taskId.indexOf(':');
      siblings.add(leaf(taskId, colon > 0 ? taskId.substring(0, colon) : taskId, reported, null));
      return;
    }
    Agent agent = located.agent();
    if (agent instanceof RemoteAgent remote) {
      siblings.add(leaf(taskId, agent.name(), reported, publicUrl(remote.url())));
      return;
    }
    if (!serves.test(agent.name())) {
      siblings.add(leaf(taskId, agent.name(), reported, null));
      return;
    }
    AgentSnapshots snapshots = agent.snapshots(context);
    SessionSnapshot row;
    try {
      row = ConsoleAgents.orNull(() -> snapshots.get(located.snapshotId()));
    } catch (BatonException e) {
      // An agent without a store keeps no row of the task.
      if (e.status() != Status.FAILED_PRECONDITION) {
        throw e;
      }
      row = null;
    }
    if (row == null) {
      siblings.add(leaf(taskId, agent.name(), reported, null));
      return;
    }
    node(taskId, agent.name(), reported.name(), reported.background(), snapshots, row, siblings);
  }

  /**
   * A task read from its store, with its own tasks under it. It goes under the task it continues
   * ({@code continue_task} runs a new turn in the task's session, from its row) when the tree shows
   * that one, and to {@code siblings} otherwise.
   */
  private ObjectNode node(
      String taskId,
      String agent,
      @Nullable String name,
      boolean background,
      AgentSnapshots snapshots,
      SessionSnapshot row,
      ArrayNode siblings) {
    Turn turn = Turn.of(snapshots, row);
    ObjectNode node = Json.object();
    node.put("taskId", taskId);
    node.put("agent", agent);
    node.put("name", name);
    String status = Views.status(row);
    node.put("status", status);
    node.put("background", background);
    node.put("startedAt", row.createdAt().toString());
    if (Views.isLive(status)) {
      node.put("durationMs", millis(row.createdAt(), now));
    } else if (row.updatedAt() != null && row.updatedAt().isAfter(row.createdAt())) {
      node.put("durationMs", millis(row.createdAt(), row.updatedAt()));
    } else {
      node.putNull("durationMs");
    }
    node.set("spend", Views.spend(turn.spend()));
    node.putNull("remoteUrl");
    ArrayNode children = node.putArray("children");
    ObjectNode continued = row.parentId() == null ? null : shown.get(agent + ":" + row.parentId());
    (continued == null ? siblings : (ArrayNode) continued.get("children")).add(node);
    shown.put(taskId, node);
    TaskReports.of(turn.added())
        .forEach(
            (child, reported) -> {
              if (seen.size() < MAX_TASKS && seen.add(child)) {
                task(child, reported, children);
              }
            });
    return node;
  }

  private static long millis(Instant from, Instant to) {
    return Math.max(0, Duration.between(from, to).toMillis());
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

  /** A remote agent's URL without what may be a secret: its user info, query and fragment. */
  private static String publicUrl(URI url) {
    try {
      return new URI(url.getScheme(), null, url.getHost(), url.getPort(), url.getPath(), null, null)
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("a part of a valid URI makes a valid URI", e);
    }
  }
}
