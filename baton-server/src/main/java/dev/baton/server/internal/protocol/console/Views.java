package dev.baton.server.internal.protocol.console;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentUsage;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionSummary;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.Role;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The console's JSON for sessions and snapshots. Rows come as an agent shows them to clients
 * (shaped: a dead worker's pending row reads {@code expired}), and a task's status is one of {@code
 * pending}, {@code aborting} (aborted, its worker still saving its progress), {@code completed},
 * {@code failed}, {@code aborted} and {@code expired}. Errors carry their status and message only.
 * Stateless.
 */
final class Views {
  private Views() {}

  /** A row of the sessions list. */
  static ObjectNode session(String agent, SessionSummary session) {
    ObjectNode node = Json.object();
    node.put("agent", agent);
    node.put("sessionId", session.sessionId());
    node.put("latestSnapshotId", session.latestSnapshotId());
    node.put("status", status(session.status(), session.finishReason()));
    node.set("finishReason", Json.toTree(session.finishReason()));
    node.set("error", error(session.error()));
    node.put("turns", session.turns());
    node.put("createdAt", session.createdAt().toString());
    node.put("updatedAt", session.updatedAt().toString());
    node.set("spend", spend(session.spend()));
    return node;
  }

  /** A snapshot without its conversation: what the chain lists for each row. */
  static ObjectNode snapshot(SessionSnapshot row) {
    ObjectNode node = Json.object();
    node.put("snapshotId", row.snapshotId());
    node.put("parentId", row.parentId());
    node.put("status", status(row));
    node.set("finishReason", Json.toTree(row.finishReason()));
    node.set("error", error(row.error()));
    node.put("createdAt", row.createdAt().toString());
    node.put("updatedAt", time(row.updatedAt() == null ? row.createdAt() : row.updatedAt()));
    node.put("heartbeatAt", time(row.heartbeatAt()));
    node.put("expired", row.statusOrCompleted() == SnapshotStatus.EXPIRED);
    SessionState state = row.state();
    node.set("spend", spend(state == null ? null : state.usage()));
    return node;
  }

  /**
   * A snapshot with its state: messages and artifacts in Genkit's wire JSON, and the custom state
   * ({@link SpendView} adds what its turn and session spent).
   */
  static ObjectNode snapshotDetail(SessionSnapshot row) {
    ObjectNode node = snapshot(row);
    SessionState state = row.state() == null ? SessionState.empty() : row.state();
    node.set("messages", Json.toTree(state.messages()));
    node.set("artifacts", Json.toTree(state.artifacts()));
    node.set("custom", Json.toTree(state.custom()));
    return node;
  }

  /** A shaped row's status as a task's. */
  static String status(SessionSnapshot shaped) {
    return status(shaped.statusOrCompleted(), shaped.finishReason());
  }

  private static String status(SnapshotStatus status, @Nullable AgentFinishReason finishReason) {
    return status == SnapshotStatus.ABORTED && finishReason == null
        ? "aborting"
        : status.wireName();
  }

  /** Whether a task in this status may still change: its row is watched for live events. */
  static boolean isLive(String status) {
    return status.equals("pending") || status.equals("aborting");
  }

  /** The usage tree on the last model message of {@code messages}, if it carries one. */
  static @Nullable AgentUsage usageTree(List<Message> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.MODEL) {
        return AgentUsage.of(messages.get(i)).orElse(null);
      }
    }
    return null;
  }

  /** Tokens spent, or JSON null when nothing was recorded. */
  static JsonNode spend(@Nullable GenerationUsage usage) {
    if (usage == null) {
      return Json.nodes().nullNode();
    }
    ObjectNode node = Json.object();
    node.put("inputTokens", orZero(usage.inputTokens()));
    node.put("outputTokens", orZero(usage.outputTokens()));
    node.put("totalTokens", totalTokens(usage));
    return node;
  }

  /** The total tokens of a usage: input plus output when the model reported no total. */
  static int totalTokens(GenerationUsage usage) {
    return usage.totalTokens() != null
        ? usage.totalTokens()
        : orZero(usage.inputTokens()) + orZero(usage.outputTokens());
  }

  static JsonNode error(@Nullable ErrorInfo error) {
    if (error == null) {
      return Json.nodes().nullNode();
    }
    ObjectNode node = Json.object();
    node.put("status", error.status());
    node.put("message", error.message());
    return node;
  }

  static @Nullable String time(@Nullable Instant instant) {
    return instant == null ? null : instant.toString();
  }

  /** A count a model may leave out, as zero. */
  static int orZero(@Nullable Integer value) {
    return value == null ? 0 : value;
  }
}
