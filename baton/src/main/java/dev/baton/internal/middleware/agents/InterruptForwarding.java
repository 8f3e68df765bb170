package dev.baton.internal.middleware.agents;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.Artifact;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StateManagement;
import dev.baton.agent.TurnContext;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.agent.LocalAgent;
import dev.baton.internal.agent.RemoteAgent;
import dev.baton.middleware.agents.Agents;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Forwarded sub-agent interrupts ({@link Agents#forwardInterrupts}): the wrapped interrupt a held
 * delegation ends the orchestrator's turn with, and the way back, from the caller's answer on the
 * wrapper to a resume of the sub-agent's interrupted turn.
 *
 * <p>The wrapper is the interrupt data of the delegation's tool request: the first held call's own
 * interrupt data (when it is an object), so a client that knows nothing of delegation renders the
 * sub-agent's question, and under {@link Agents#SUB_AGENT} the routing: the sub-agent's name, the
 * task ID of its interrupted turn and the held tool request parts as the sub-agent's response
 * carried them. The orchestrator's session keeps the wrapper on its interrupted message; the
 * sub-agent's snapshot keeps the held calls. Nothing is held in memory between the interrupt and
 * the answer. Stateless; thread-safe.
 */
final class InterruptForwarding {
  /**
   * The key of the claim ({@link AnswerClaim}) an answer puts on the held turn's last message
   * before it resumes the turn, so that a second answer (a concurrent retry) finds the turn taken
   * and runs nothing.
   */
  static final String CLAIM = "baton.forwardedAnswer";

  private InterruptForwarding() {}

  /**
   * Whether a run of the agent can forward its interrupts: a server-managed agent, whose
   * interrupted turn is a snapshot that a resume turn answers, local (with a session store) or
   * remote (declared server-managed: Baton cannot ask a server how it keeps sessions). An agent
   * whose session the client keeps, or a remote one that declared nothing, reports an interrupt as
   * text.
   */
  static boolean canForward(Agent target) {
    AgentMetadata metadata = target.metadata();
    return metadata != null && metadata.stateManagement() == StateManagement.SERVER;
  }

  /**
   * Whether a run of the agent forwards its interrupts in this orchestrator's conversation: it
   * {@linkplain #canForward(Agent) can}, and the answer can be routed back. A remote sub-agent's
   * snapshot is read with this instance's own credentials, which prove nothing about the caller, so
   * its question is forwarded only in a conversation this instance keeps (a server-managed
   * orchestrator's, whose history a client cannot plant a wrapper in); elsewhere it is reported as
   * text from the start, rather than asked and then refused.
   */
  static boolean canForward(ActionContext context, Agent target) {
    return canForward(target) && (!(target instanceof RemoteAgent) || keepsSessions(context));
  }

  /** Whether the orchestrator's turn is saved by this instance: it keeps the conversation. */
  static boolean keepsSessions(ActionContext context) {
    return context.get(TurnContext.KEY).map(turn -> !turn.snapshotId().isEmpty()).orElse(false);
  }

  /**
   * The wrapped interrupt of a run that ended interrupted, or null when its output names no
   * snapshot or holds no interrupted call to answer.
   */
  static @Nullable ObjectNode wrap(String agent, AgentOutput output) {
    return wrap(agent, output.snapshotId(), output.message());
  }

  /**
   * The wrapped interrupt of a background task whose row ended interrupted, or null when its turn
   * cannot be answered any more: the row did not stop on an interrupt, or its session has moved on
   * since (the question was answered, and the task continues under another ID).
   *
   * @param label the task's label, which the routing carries to the task that resumes it
   */
  static @Nullable ObjectNode wrapTask(
      ActionContext context,
      Agent agent,
      TaskId task,
      SessionSnapshot row,
      @Nullable String label) {
    if (row.statusOrCompleted() != SnapshotStatus.COMPLETED
        || row.finishReason() != AgentFinishReason.INTERRUPTED
        || row.sessionId() == null) {
      return null;
    }
    SessionSnapshot latest = agent.snapshots(context).latest(row.sessionId());
    if (latest == null || !latest.snapshotId().equals(row.snapshotId())) {
      return null;
    }
    ObjectNode wrapped = wrap(task.agent(), row.snapshotId(), lastMessage(row));
    if (wrapped != null && label != null) {
      ((ObjectNode) wrapped.get(Agents.SUB_AGENT)).put("name", label);
    }
    return wrapped;
  }

  private static @Nullable ObjectNode wrap(
      String agent, @Nullable String snapshotId, @Nullable Message message) {
    String taskId = TaskId.of(agent, snapshotId);
    List<ToolRequestPart> held = held(message);
    if (taskId == null || held.isEmpty()) {
      return null;
    }
    ObjectNode routing = Json.object();
    routing.put("agent", agent);
    routing.put("taskId", taskId);
    return wrapper(routing, held.stream().<JsonNode>map(Json::toTree).toList());
  }

  /**
   * The wrapper of held calls: the first call's own interrupt data (when it is an object) and,
   * under {@link Agents#SUB_AGENT}, the routing with the calls as {@code interrupts}.
   *
   * @param routing the routing's other fields (agent, task ID, label), copied
   * @param calls the held tool request parts, as JSON; at least one
   */
  static ObjectNode wrapper(JsonNode routing, List<JsonNode> calls) {
    ObjectNode data = Json.object();
    JsonNode question = calls.get(0).path("metadata").get("interrupt");
    if (question instanceof ObjectNode fields) {
      // A forwarded interrupt of a deeper level carries its own routing, which ours replaces.
      fields.properties().stream()
          .filter(field -> !field.getKey().equals(Agents.SUB_AGENT))
          .forEach(field -> data.set(field.getKey(), field.getValue().deepCopy()));
    }
    ObjectNode copy = data.putObject(Agents.SUB_AGENT);
    routing.properties().stream()
        .filter(field -> !field.getKey().equals("interrupts"))
        .forEach(field -> copy.set(field.getKey(), field.getValue().deepCopy()));
    ArrayNode parts = copy.putArray("interrupts");
    calls.forEach(call -> parts.add(call.deepCopy()));
    return data;
  }

  /** The routing of a tool request's interrupt data, or null when it is not a wrapper. */
  static @Nullable JsonNode routing(@Nullable JsonNode interrupt) {
    JsonNode routing = interrupt == null ? null : interrupt.get(Agents.SUB_AGENT);
    return routing != null && routing.isObject() && routing.path("taskId").isString()
        ? routing
        : null;
  }

  /**
   * The ref of a held call as a wrapper lists it (a tool request part in JSON), or null for a call
   * the model made without one: the key its answer goes under ({@link Held#answer}).
   */
  static @Nullable String heldRef(JsonNode held) {
    JsonNode ref = held.path("toolRequest").get("ref");
    return ref != null && ref.isString() ? ref.asString() : null;
  }

  private static @Nullable Message lastMessage(SessionSnapshot row) {
    List<Message> messages = row.state() == null ? List.of() : row.state().messages();
    return messages.isEmpty() ? null : messages.get(messages.size() - 1);
  }

  /** The calls of a model message that interrupted its turn, in order. */
  private static List<ToolRequestPart> held(@Nullable Message message) {
    if (message == null) {
      return List.of();
    }
    List<ToolRequestPart> held = new ArrayList<>();
    for (ToolRequestPart part : message.toolRequests()) {
      if (part.metadata() != null && part.metadata().has("interrupt")) {
        held.add(part);
      }
    }
    return held;
  }

  /**
   * The caller's answer to one held call.
   *
   * @param restart the restart data, or null for a response
   * @param output the response's output, when {@code restart} is null
   */
  record Answer(@Nullable JsonNode restart, @Nullable JsonNode output) {}

  /**
   * A sub-agent's interrupted turn as it stands in its session, ready to be answered, or already
   * answered by an earlier attempt of the same answer.
   *
   * @param agent the sub-agent
   * @param row the snapshot of the interrupted turn
   * @param calls the held calls, from the snapshot
   * @param answeredBy the row of the sub-agent's turn that an earlier attempt of the same answer
   *     resumed the held turn into (its session's latest, resumed from {@code row}), whose result
   *     stands for the answer; null when the turn is still to be answered
   */
  record Held(
      Agent agent,
      SessionSnapshot row,
      List<ToolRequestPart> calls,
      @Nullable SessionSnapshot answeredBy) {

    /**
     * The sub-agent's resume for the caller's answers, one per held call: a restart runs the call
     * with the caller's data as {@code metadata.resumed}, a response stands in for it.
     *
     * @param answers the answers by the held call's ref ({@link #heldRef}), null for a call without
     *     one
     * @throws BatonException {@code INVALID_ARGUMENT} when a held call has no answer, or an answer
     *     names a call the turn does not hold
     */
    Resume answer(Map<@Nullable String, Answer> answers) {
      String task = TaskId.of(agent.name(), row.snapshotId());
      List<ToolRequestPart> restarts = new ArrayList<>();
      List<ToolResponsePart> responds = new ArrayList<>();
      Set<@Nullable String> held = new HashSet<>();
      for (ToolRequestPart call : calls) {
        ToolRequest request = call.toolRequest();
        held.add(request.ref());
        Answer answer = answers.get(request.ref());
        if (answer == null) {
          throw BatonException.invalidArgument(
              "the resume leaves the question of sub-agent task %s on its call \"%s\" (ref: %s)"
                  + " unanswered: answer every held call of the task",
              task, request.name(), request.ref());
        }
        if (answer.restart() != null) {
          ObjectNode metadata = Json.object();
          metadata.set("resumed", answer.restart().deepCopy());
          restarts.add(new ToolRequestPart(request, metadata));
        } else {
          responds.add(Part.toolResponse(request.name(), request.ref(), answer.output()));
        }
      }
      for (@Nullable String ref : answers.keySet()) {
        if (!held.contains(ref)) {
          throw BatonException.invalidArgument(
              "the resume answers a call (ref: %s) that sub-agent task %s does not hold",
              ref, task);
        }
      }
      return Resume.of(responds, restarts);
    }

    /**
     * The output the sub-agent's run gave when an earlier attempt of the answer resumed the turn,
     * read back from the row that run saved ({@link #answeredBy}): a completed turn's answer, an
     * aborted turn's progress, or a failure that names the held turn, as a failed run does.
     */
    AgentOutput answeredOutput() {
      SessionSnapshot resumed = Objects.requireNonNull(answeredBy);
      String sessionId = Objects.requireNonNull(resumed.sessionId());
      Message message = lastMessage(resumed);
      List<Artifact> artifacts = resumed.state() == null ? List.of() : resumed.state().artifacts();
      ErrorInfo error =
          resumed.error() != null
              ? resumed.error()
              : ErrorInfo.of(Status.UNKNOWN, "the sub-agent's turn did not finish");
      return switch (resumed.statusOrCompleted()) {
        case COMPLETED ->
            AgentOutput.of(
                sessionId, resumed.snapshotId(), resumed.finishReason(), message, artifacts);
        case ABORTED ->
            AgentOutput.aborted(sessionId, resumed.snapshotId(), message, artifacts, error);
        case PENDING, FAILED, EXPIRED -> AgentOutput.failed(sessionId, row.snapshotId(), error);
      };
    }

    /**
     * Claims the turn for one answer, atomically in the sub-agent's store: the first answer to
     * claim it resumes it, any other finds the claim and changes nothing. A remote sub-agent's turn
     * cannot be claimed ({@link #claimStore}) and is returned as it is.
     *
     * @param answer the answer's claim, recorded on the turn
     * @return the claimed turn, whose {@link #release} gives it back
     * @throws BatonException {@code FAILED_PRECONDITION} when another answer claimed it first
     */
    Held claim(ActionContext context, AnswerClaim answer) {
      SessionStore store = claimStore(agent);
      if (store == null) {
        return this;
      }
      ObjectNode claim = answer.toJson();
      SessionSnapshot claimed =
          store.saveSnapshot(
              context,
              row.snapshotId(),
              current -> current == null || claimOf(current) != null ? null : mark(current, claim));
      if (claimed == null) {
        throw BatonException.failedPrecondition(
            "sub-agent task %s is already being answered",
            TaskId.of(agent.name(), row.snapshotId()));
      }
      return new Held(agent, claimed, calls, null);
    }

    /**
     * Gives the claimed turn back when its answer will not run it (the claim of a sibling answer
     * was refused), so that a retry can answer it again.
     */
    void release(ActionContext context) {
      SessionStore store = claimStore(agent);
      JsonNode ours = claimOf(row);
      if (store == null || ours == null) {
        return;
      }
      store.saveSnapshot(
          context,
          row.snapshotId(),
          current ->
              current == null || !ours.equals(claimOf(current)) ? null : mark(current, null));
    }

    /**
     * Gives the claimed turn back when its answer did not move the sub-agent's session on (the
     * resume was refused, or failed before its turn saved a row): the held turn is still the one to
     * answer, and a retry can answer it.
     */
    void releaseIfUnanswered(ActionContext context) {
      if (claimOf(row) == null) {
        return; // a remote sub-agent's turn, which is answered unclaimed
      }
      SessionSnapshot latest =
          row.sessionId() == null ? null : agent.snapshots(context).latest(row.sessionId());
      if (latest != null && latest.snapshotId().equals(row.snapshotId())) {
        release(context);
      }
    }
  }

  /**
   * Where an answer claims a held turn: the local sub-agent's session store. Null for a remote
   * sub-agent, whose store only its server writes: the wire has no conditional write, so its turn
   * is answered unclaimed. What still refuses a second answer is the check that the held turn is
   * its session's latest ({@link #read}); neither Baton's server nor Genkit JS refuses a resume of
   * an older snapshot, so two answers that both read the turn before either resumed turn ends run
   * it twice, on two branches of its session.
   */
  private static @Nullable SessionStore claimStore(Agent agent) {
    if (agent instanceof RemoteAgent) {
      return null;
    }
    SessionStore store = agent instanceof LocalAgent local ? local.store() : null;
    if (store == null) {
      throw BatonException.failedPrecondition(
          "sub-agent %s keeps no sessions, so its question cannot be answered", agent.name());
    }
    return store;
  }

  /** The claim on a held turn, or null when no answer has claimed it. */
  private static @Nullable JsonNode claimOf(SessionSnapshot row) {
    Message last = lastMessage(row);
    JsonNode claim = last == null || last.metadata() == null ? null : last.metadata().get(CLAIM);
    return claim == null || claim.isNull() ? null : claim;
  }

  /** The row with the claim set on (or, for null, removed from) its last message. */
  private static SessionSnapshot mark(SessionSnapshot row, @Nullable ObjectNode claim) {
    SessionState state = Objects.requireNonNull(row.state());
    List<Message> messages = new ArrayList<>(state.messages());
    Message last = messages.get(messages.size() - 1);
    ObjectNode metadata = last.metadata() == null ? Json.object() : last.metadata().deepCopy();
    if (claim == null) {
      metadata.remove(CLAIM);
    } else {
      metadata.set(CLAIM, claim);
    }
    messages.set(messages.size() - 1, last.withMetadata(metadata.isEmpty() ? null : metadata));
    return row.withState(state.withMessages(messages));
  }

  /**
   * Whether a session's latest row is the held turn's resumed turn and nothing after it: a child of
   * the held row, or, for a resume that ran detached, the pending row chained off that child. A
   * detached run hands its turn to the background once started, and a turn that ended before the
   * hand-off has saved its own row first, so the pending row, which records the same conversation,
   * is its grandchild. A later turn in the session adds messages, which tells it apart.
   */
  private static boolean resumedFrom(
      AgentSnapshots snapshots, SessionSnapshot held, SessionSnapshot latest) {
    if (held.snapshotId().equals(latest.parentId())) {
      return true;
    }
    if (latest.parentId() == null) {
      return false;
    }
    SessionSnapshot turn = snapshots.get(latest.parentId());
    return held.snapshotId().equals(turn.parentId())
        && turn.state() != null
        && latest.state() != null
        && turn.state().messages().size() == latest.state().messages().size();
  }

  /**
   * Reads the interrupted turn a wrapper routes to and checks that it can still be answered: the
   * task names a configured agent, its snapshot exists for the caller, ended interrupted and is
   * still its session's latest. A turn an earlier attempt of the same answer claimed and resumed
   * (its session's latest row is the resumed turn's, {@link #resumedFrom}) is read as answered by
   * that row ({@link Held#answeredBy}): the retry folds it, and the sub-agent runs once.
   *
   * @param answer the claim the answer would put on the turn, which recognises an earlier attempt
   * @throws BatonException {@code INVALID_ARGUMENT} for a task ID that names no configured agent,
   *     {@code NOT_FOUND} for a snapshot the caller cannot read, {@code FAILED_PRECONDITION} for a
   *     turn that did not end interrupted, that another answer claimed ({@link Held#claim}), or
   *     whose session has moved on since
   */
  static Held read(
      ActionContext context,
      Registry registry,
      Collection<String> agents,
      JsonNode routing,
      AnswerClaim answer) {
    String id = routing.path("taskId").asString("");
    TaskId task = TaskId.parse(id, agents);
    Agent agent = AgentLookup.find(registry, task.agent());
    SessionSnapshot row = agent.snapshots(context).get(task.snapshotId());
    Message last = lastMessage(row);
    List<ToolRequestPart> calls =
        last != null && last.role() == Role.MODEL ? held(last) : List.<ToolRequestPart>of();
    if (row.statusOrCompleted() != SnapshotStatus.COMPLETED
        || row.finishReason() != AgentFinishReason.INTERRUPTED
        || calls.isEmpty()) {
      throw BatonException.failedPrecondition(
          "sub-agent task %s did not stop on an interrupt, so there is nothing to answer", id);
    }
    JsonNode claim = claimOf(row);
    SessionSnapshot latest =
        row.sessionId() == null ? null : agent.snapshots(context).latest(row.sessionId());
    if (latest != null && !latest.snapshotId().equals(row.snapshotId())) {
      AnswerClaim earlier = AnswerClaim.read(claim);
      if (earlier != null
          && earlier.sameAnswer(answer)
          && resumedFrom(agent.snapshots(context), row, latest)) {
        return new Held(agent, row, calls, latest);
      }
    }
    if (latest == null || !latest.snapshotId().equals(row.snapshotId())) {
      throw BatonException.failedPrecondition(
          "sub-agent task %s cannot be answered: its session has moved on since it asked", id);
    }
    if (claim != null) {
      // Possibly an earlier attempt of this very answer: while it runs, its sub-agent has saved
      // nothing, so a retry cannot tell it from a live answer, and must not run the turn twice.
      throw BatonException.failedPrecondition("sub-agent task %s is already being answered", id);
    }
    return new Held(agent, row, calls, null);
  }
}
