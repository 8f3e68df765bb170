package dev.baton.a2a.internal.server;

import dev.baton.a2a.internal.wire.TaskState;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.agent.LocalAgent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The rows of one A2A task. A task is known by the snapshot its first turn writes; each answer to
 * an {@code input-required} round resumes the task's latest row into a new row, and the answered
 * row links to it. So the task's rows form a chain from the first, which every read of the task
 * follows to its latest row.
 *
 * <p>The link is the {@value #LINK} object in the metadata of the answered row's last message (the
 * model message that asked): the one part of a row every store persists as it is written, and which
 * the row's own later writes never touch, because a settled row has no worker left. The snapshot's
 * parent link cannot serve: it points back, and a row's children include the next task of its
 * context as well as its answer. The link is written in two steps, each one compare-and-set on the
 * asked row in the agent's store, so that two servers sharing the store agree:
 *
 * <ol>
 *   <li>the claim, {@code {"row", "answer"}}, before the resume runs: the first answer to claim the
 *       row resumes it, any other finds the claim and runs nothing;
 *   <li>the link, the claim with {@code "next"}, the resumed turn's snapshot ID, once the resume
 *       has started. A claim without a link is an answer on its way: the task reads {@code
 *       working}.
 * </ol>
 *
 * <p>A cancel of a task waiting for input marks its latest row {@code {"row", "canceled": true}}
 * instead, the same way, so no answer can claim it after.
 *
 * <p>The link names its own row: a later row of the session copies the asked message into its
 * history (a resume, a failed turn's state), and a link read there is not that row's.
 *
 * <p>Holds one request's context; not shared between threads.
 */
final class TaskChain {
  /** The key of a row's link in the metadata of its last message. */
  static final String LINK = "baton.a2aTask";

  private final AgentSnapshots snapshots;
  private final @Nullable SessionStore store;
  private final ActionContext context;

  TaskChain(Agent agent, AgentSnapshots snapshots, ActionContext context) {
    this.snapshots = snapshots;
    // An agent this process does not run keeps its rows where no link can be written; its tasks
    // are their first rows.
    this.store = agent instanceof LocalAgent local ? local.store() : null;
    this.context = context;
  }

  /**
   * The latest row of a task, shaped as clients see it, and the task's state there.
   *
   * @throws BatonException {@code NOT_FOUND} for a task the caller cannot read
   */
  Head head(String taskId) {
    if (taskId.isEmpty()) {
      throw BatonException.notFound("no such task");
    }
    if (store == null) {
      SessionSnapshot row = snapshots.get(taskId);
      return new Head(row, TaskMapping.state(row), null);
    }
    String id = taskId;
    SessionSnapshot base = null;
    JsonNode link;
    while (true) {
      SessionSnapshot raw = store.getSnapshot(context, id);
      if (raw == null) {
        throw BatonException.notFound("no such task");
      }
      link = linkOf(raw);
      if (link == null || !link.path("next").isString()) {
        break;
      }
      base = raw;
      id = link.path("next").asString();
    }
    SessionSnapshot row = snapshots.get(id);
    TaskState state =
        link == null
            ? TaskMapping.state(row)
            : link.path("canceled").asBoolean(false) ? TaskState.CANCELED : TaskState.WORKING;
    return new Head(row, state, base);
  }

  /**
   * Claims a row that waits for input for one answer.
   *
   * @return the claim, which {@link #link} and {@link #release} name
   * @throws BatonException {@code FAILED_PRECONDITION} ({@link AgentTasks.NotContinuable}) when
   *     another answer claimed the row first, or a cancel marked it
   */
  String claim(String taskId, String rowId) {
    String answer = UUID.randomUUID().toString();
    ObjectNode claim = Json.object().put("row", rowId).put("answer", answer);
    SessionSnapshot claimed =
        requireStore()
            .saveSnapshot(
                context,
                rowId,
                current ->
                    current == null || linkOf(current) != null ? null : mark(current, claim));
    if (claimed == null) {
      throw new AgentTasks.NotContinuable("Task " + taskId + " is already being answered");
    }
    return answer;
  }

  /** Links a claimed row to the turn its answer started. */
  void link(String rowId, String answer, String next) {
    requireStore()
        .saveSnapshot(
            context,
            rowId,
            current ->
                current == null || !isClaimedBy(current, answer)
                    ? null
                    : mark(current, claimOf(current, answer).put("next", next)));
  }

  /** Gives a claimed row back when its answer started no turn, so that another answer may. */
  void release(String rowId, String answer) {
    requireStore()
        .saveSnapshot(
            context,
            rowId,
            current ->
                current == null || !isClaimedBy(current, answer) ? null : mark(current, null));
  }

  private static boolean isClaimedBy(SessionSnapshot row, String answer) {
    JsonNode link = linkOf(row);
    return link != null && !link.has("next") && answer.equals(link.path("answer").asString(null));
  }

  private static ObjectNode claimOf(SessionSnapshot row, String answer) {
    return Json.object().put("row", row.snapshotId()).put("answer", answer);
  }

  /**
   * Marks a row that waits for input canceled, unless an answer claimed it first.
   *
   * @return whether the mark was written
   */
  boolean cancel(String rowId) {
    ObjectNode canceled = Json.object().put("row", rowId).put("canceled", true);
    Instant now = Instant.now();
    return requireStore()
            .saveSnapshot(
                context,
                rowId,
                current -> {
                  SessionSnapshot marked =
                      current == null || linkOf(current) != null ? null : mark(current, canceled);
                  return marked == null ? null : marked.withUpdatedAt(now);
                })
        != null;
  }

  private SessionStore requireStore() {
    if (store == null) {
      throw BatonException.failedPrecondition(
          "the agent runs elsewhere, so its questions cannot be answered or canceled here");
    }
    return store;
  }

  /** The row's own link, or null when it has none (a link copied from an earlier row is not). */
  private static @Nullable JsonNode linkOf(SessionSnapshot row) {
    List<Message> messages = row.state() == null ? List.of() : row.state().messages();
    ObjectNode metadata = messages.isEmpty() ? null : messages.getLast().metadata();
    JsonNode link = metadata == null ? null : metadata.get(LINK);
    return link instanceof ObjectNode && row.snapshotId().equals(link.path("row").asString(null))
        ? link
        : null;
  }

  /** The row with the link set on (or, for null, removed from) its last message. */
  private static @Nullable SessionSnapshot mark(SessionSnapshot row, @Nullable ObjectNode link) {
    SessionState state = row.state();
    if (state == null || state.messages().isEmpty()) {
      return null;
    }
    List<Message> messages = new ArrayList<>(state.messages());
    Message last = messages.getLast();
    ObjectNode metadata = last.metadata() == null ? Json.object() : last.metadata().deepCopy();
    if (link == null) {
      metadata.remove(LINK);
    } else {
      metadata.set(LINK, link);
    }
    messages.set(messages.size() - 1, last.withMetadata(metadata.isEmpty() ? null : metadata));
    return row.withState(state.withMessages(messages));
  }

  /**
   * A task's latest row and the task's state: the row's own, or {@code working} while an answer
   * claims it, or {@code canceled} once a cancel marked it.
   *
   * @param base the row the latest row's turn answered, whose session the round started from; null
   *     in the task's first round
   */
  record Head(SessionSnapshot row, TaskState state, @Nullable SessionSnapshot base) {}
}
