package dev.baton.internal.middleware.agents;

import dev.baton.agent.AgentUsage;
import dev.baton.agent.TurnContext;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateParams;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.agent.RemoteAgent;
import dev.baton.internal.agent.UsageTrees;
import dev.baton.internal.ai.GenerateRun;
import dev.baton.internal.ai.Messages;
import dev.baton.internal.ai.Metadata;
import dev.baton.internal.ai.ToolInterrupt;
import dev.baton.internal.middleware.agents.InterruptForwarding.Answer;
import dev.baton.internal.middleware.agents.InterruptForwarding.Held;
import dev.baton.internal.middleware.agents.TaskMessages.Result;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The answers a resume of the orchestrator gives to its forwarded interrupts, within one generate
 * call. The wrappers come from the conversation the call resumes (the orchestrator's session), the
 * answers from the call's resume: nothing survives from the turn that asked.
 *
 * <p>The generate loop applies a resume before any model call, and checks it first: a response
 * stands in for the held part's output, and a restart of a held part answers a placeholder ({@link
 * #holds}) instead of delegating again. The parts of one held call ({@link PerCallInterrupts})
 * answer one sub-agent turn together. Before the first model call, {@link #route} checks every
 * answered turn, so a bad answer changes nothing, then resumes each in its own session and puts its
 * result in place of the answers, as the one response to the call the model made. A held check or
 * wait asked a background task's question: that task resumes in the background, and its launch
 * result takes the answers' place. A retry of an answer whose sub-agent already answered folds that
 * answer instead of running the sub-agent again ({@link InterruptForwarding#read}).
 *
 * <p>A resumed turn that asks again keeps the call held: the first model call of the resume is
 * answered by the middleware with the same call again ({@link #askAgain}), whose tool call ends the
 * orchestrator's turn interrupted on the new question ({@link #question}). The next resume drops
 * that repeated call and its answer from the conversation, so the model sees one call and one
 * result. Thread-safe.
 */
final class ForwardedAnswers {
  private static final Logger log = LoggerFactory.getLogger(ForwardedAnswers.class);

  /**
   * The key, on the metadata of a model message the middleware made, that marks it as a call held
   * again because its sub-agent asked again after an answer.
   */
  static final String ASKED_AGAIN = "baton.askedAgain";

  /**
   * The answered parts that stand for one held call the model made: one sub-agent turn, resumed
   * once with an answer per held call. A held check or wait ({@code background}) asked for a
   * background task, which resumes in the background.
   *
   * @param call the call the model made
   * @param routing the routing of its wrappers
   * @param answers the answers, by the sub-agent's held call's ref ({@link
   *     InterruptForwarding#heldRef})
   */
  private record Turn(
      ToolRequest call,
      JsonNode routing,
      boolean background,
      Map<@Nullable String, Answer> answers) {}

  private static final ForwardedAnswers NONE = new ForwardedAnswers(List.of(), List.of());

  private final List<Turn> turns;
  // The held parts the resume restarts, which answer a placeholder rather than run again.
  private final List<ToolRequest> restarted;
  // What the sub-agents answered, by call, and the new questions of those that asked again:
  // computed once, applied to every attempt of the first model call (a retrying middleware may call
  // it again).
  private @Nullable Map<CallKey, JsonNode> results;
  private Map<CallKey, JsonNode> questions = Map.of();

  private ForwardedAnswers(List<Turn> turns, List<ToolRequest> restarted) {
    this.turns = turns;
    this.restarted = restarted;
  }

  /**
   * The forwarded interrupts the generate call's resume answers, when forwarding is on.
   *
   * @throws dev.baton.core.BatonException as {@link #requireRoutable} does, before anything runs
   */
  static ForwardedAnswers of(DelegationSetup setup, ActionContext context) {
    if (!setup.config().forwardInterrupts()) {
      return NONE;
    }
    GenerateOptions options = GenerateRun.of(context).map(GenerateRun::options).orElse(null);
    Resume resume = options == null ? null : options.resume();
    if (options == null || resume == null || resume.isEmpty()) {
      return NONE;
    }
    Message asked = Messages.lastModel(options.messages());
    if (asked == null) {
      return NONE;
    }
    TaskScope scope = new TaskScope(setup.resultTools());
    scope.see(options.messages());
    Map<CallKey, Turn> turns = new LinkedHashMap<>();
    List<ToolRequest> restarted = new ArrayList<>();
    for (ToolRequestPart part : asked.toolRequests()) {
      ToolRequest call = part.toolRequest();
      JsonNode routing =
          InterruptForwarding.routing(
              part.metadata() == null ? null : part.metadata().get("interrupt"));
      if (routing == null || !setup.owns(call.name())) {
        continue;
      }
      ToolRequestPart restart = restartOf(resume, call);
      ToolResponsePart respond = respondOf(resume, call);
      Answer answer;
      // As the generate loop reads a resume: a response wins over a restart of the same call.
      if (respond != null) {
        JsonNode output = respond.toolResponse().output();
        answer = new Answer(null, output == null ? Json.nodes().nullNode() : output);
      } else if (restart != null) {
        JsonNode data = restart.metadata() == null ? null : restart.metadata().get("resumed");
        answer = new Answer(data == null ? Json.nodes().booleanNode(true) : data, null);
        restarted.add(call);
      } else {
        // Unanswered: the generate loop refuses the resume before anything runs.
        continue;
      }
      requireRoutable(setup, context, scope, call, routing);
      ToolRequest origin = PerCallInterrupts.origin(part);
      Turn turn =
          turns.computeIfAbsent(
              CallKey.of(origin),
              k ->
                  new Turn(
                      origin,
                      routing,
                      BackgroundTasks.reports(setup.config(), call.name()),
                      new LinkedHashMap<>()));
      // The answer is the held calls' the part's wrapper lists: one, unless it was never split.
      for (JsonNode held : routing.path("interrupts")) {
        turn.answers().put(InterruptForwarding.heldRef(held), answer);
      }
    }
    return turns.isEmpty()
        ? NONE
        : new ForwardedAnswers(List.copyOf(turns.values()), List.copyOf(restarted));
  }

  /**
   * Checks that a wrapper routes where its call can ask: a delegation's to a turn of the agent it
   * delegates to, a check's or wait's to a task of this conversation's scope. A client that keeps
   * the conversation could otherwise point one call's answer at another agent's turn, or at a task
   * of another conversation. A remote sub-agent's snapshot is read with this instance's own
   * credentials rather than the caller's, so only a conversation this instance keeps (a
   * server-managed orchestrator's) may route to one.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for a wrapper whose agent is not
   *     its call's, {@code NOT_FOUND} for a task outside the conversation's scope, {@code
   *     FAILED_PRECONDITION} for a remote sub-agent's turn in a conversation the client keeps
   */
  private static void requireRoutable(
      DelegationSetup setup,
      ActionContext context,
      TaskScope scope,
      ToolRequest call,
      JsonNode routing) {
    String taskId = routing.path("taskId").asString();
    TaskId task = TaskId.parse(taskId, setup.agentNames());
    String delegate = setup.delegatesTo(call.name());
    boolean background = BackgroundTasks.reports(setup.config(), call.name());
    boolean ownAgent = delegate != null ? delegate.equals(task.agent()) : background;
    if (!ownAgent || !task.agent().equals(routing.path("agent").asString(""))) {
      throw BatonException.invalidArgument(
          "the interrupt on call \"%s\" (ref: %s) routes to task %s, which that call cannot have"
              + " asked for",
          call.name(), call.ref(), taskId);
    }
    if (background && scope.find(taskId) == null) {
      throw BatonException.notFound("task \"%s\" was not started in this conversation", taskId);
    }
    boolean serverKept =
        context.get(TurnContext.KEY).map(turn -> !turn.snapshotId().isEmpty()).orElse(false);
    if (!serverKept && AgentLookup.find(setup.registry(), task.agent()) instanceof RemoteAgent) {
      throw BatonException.failedPrecondition(
          "the question of remote sub-agent task %s can be answered only through an orchestrator"
              + " that keeps its sessions (a session store): a conversation the client keeps"
              + " cannot prove the task is its own",
          taskId);
    }
  }

  /** Whether the generate call answers forwarded interrupts. */
  boolean answering() {
    return !turns.isEmpty();
  }

  /** Whether a restarted call is a held part, which {@link #route} answers. */
  boolean holds(ToolRequest call) {
    return restarted.stream().anyMatch(held -> same(held, call));
  }

  /**
   * Before the first model call of a resume: checks every answered sub-agent turn, then resumes
   * each with its answers and puts the result in the conversation as the call's output.
   *
   * @throws dev.baton.core.BatonException as {@link InterruptForwarding#read} and {@link
   *     Held#answer} do, before any sub-agent runs
   */
  GenerateParams route(ActionContext context, GenerateParams params, Delegation delegation) {
    if (turns.isEmpty() || params.iteration() != 0) {
      return params;
    }
    Map<CallKey, JsonNode> outputs = resolve(context, params.history(), delegation);
    return params
        .withHistory(answer(params.history(), outputs))
        .withRequest(params.request().withMessages(answer(params.request().messages(), outputs)));
  }

  /** Whether a sub-agent asked again after its answer, so that the call stays held. */
  synchronized boolean asksAgain() {
    return !questions.isEmpty();
  }

  /**
   * The model response the middleware gives in place of the first model call when sub-agents asked
   * again: the calls the model made for them, once more, marked {@value #ASKED_AGAIN}.
   */
  synchronized ModelResponse askAgain(ModelRequest request) {
    List<Part> calls = new ArrayList<>();
    for (Turn turn : turns) {
      if (questions.containsKey(CallKey.of(turn.call()))) {
        calls.add(new ToolRequestPart(turn.call(), null));
      }
    }
    Message again =
        new Message(Role.MODEL, calls).withMetadata(Metadata.withFlag(null, ASKED_AGAIN));
    return ModelResponse.of(again, FinishReason.STOP).withRequest(request);
  }

  /** The new question of a call {@link #askAgain} made, or null for any other call. */
  synchronized @Nullable JsonNode question(ToolRequest call) {
    return questions.get(CallKey.of(call));
  }

  private synchronized Map<CallKey, JsonNode> resolve(
      ActionContext context, List<Message> history, Delegation delegation) {
    if (results != null) {
      return results;
    }
    List<Held> held = new ArrayList<>();
    List<AnswerClaim> claims = new ArrayList<>();
    for (Turn turn : turns) {
      AnswerClaim claim = AnswerClaim.of(context, turn.call().ref(), turn.answers());
      claims.add(claim);
      held.add(
          InterruptForwarding.read(
              context, delegation.registry(), delegation.agentNames(), turn.routing(), claim));
    }
    List<@Nullable Resume> resumes = new ArrayList<>();
    for (int i = 0; i < turns.size(); i++) {
      Held turn = held.get(i);
      resumes.add(turn.answeredBy() != null ? null : turn.answer(turns.get(i).answers()));
    }
    // Every turn is claimed before any runs: a claim another answer holds refuses the whole resume.
    // A turn an earlier attempt of the same answer resumed needs no claim: it is folded, not run.
    List<Held> claimed = new ArrayList<>();
    try {
      for (int i = 0; i < turns.size(); i++) {
        Held turn = held.get(i);
        claimed.add(turn.answeredBy() != null ? turn : turn.claim(context, claims.get(i)));
      }
    } catch (RuntimeException e) {
      claimed.stream().filter(turn -> turn.answeredBy() == null).forEach(t -> t.release(context));
      throw e;
    }
    Map<CallKey, JsonNode> outputs = new HashMap<>();
    Map<CallKey, JsonNode> asked = new HashMap<>();
    try {
      for (int i = 0; i < turns.size(); i++) {
        Turn turn = turns.get(i);
        CallKey key = CallKey.of(turn.call());
        try {
          outputs.put(
              key, Json.toTree(answer(context, delegation, turn, claimed.get(i), resumes.get(i))));
        } catch (ToolInterrupt again) {
          asked.put(key, again.data());
          outputs.put(
              key,
              Json.toTree(
                  Result.text(
                      "Sub-agent \""
                          + claimed.get(i).agent().name()
                          + "\" asked again after its question was answered; the turn pauses"
                          + " until the user answers.",
                      label(turn))));
        }
      }
    } finally {
      // A turn whose resume left its session where it was (refused, or failed before its turn
      // saved a row) is given back, so that a retry can answer it.
      claimed.stream()
          .filter(turn -> turn.answeredBy() == null)
          .forEach(turn -> releaseIfUnanswered(context, turn));
    }
    // The turn that asked again recorded its usage tree (the resumed sub-agent's calls) on the call
    // it held again, which the conversation now drops: this turn's tree keeps it.
    List<Message> joined = PerCallInterrupts.join(history);
    int again = askedAgain(joined);
    if (again >= 0) {
      AgentUsage.of(joined.get(again)).ifPresent(tree -> UsageTrees.carry(context, tree));
    }
    questions = Map.copyOf(asked);
    results = Map.copyOf(outputs);
    return results;
  }

  /**
   * Resumes one answered turn, or folds what an earlier attempt of the answer resumed it into.
   *
   * @param resume the sub-agent's resume, or null for a turn an earlier attempt answered
   * @throws ToolInterrupt with the new wrapper, when the synchronous turn asks again
   */
  private static Result answer(
      ActionContext context, Delegation delegation, Turn turn, Held held, @Nullable Resume resume) {
    String name = label(turn);
    if (resume == null) {
      return turn.background()
          ? delegation.answeredInBackground(held, name)
          : delegation.answered(context, held, name);
    }
    return turn.background()
        ? delegation.answerInBackground(context, held, resume, name)
        : delegation.answer(context, held, resume, name);
  }

  /** A delegation's label is on its call; a background task's on the routing of its report. */
  private static @Nullable String label(Turn turn) {
    JsonNode label =
        turn.background()
            ? turn.routing().get("name")
            : turn.call().input() == null ? null : turn.call().input().get("name");
    return label != null && label.isString() ? label.asString() : null;
  }

  private static void releaseIfUnanswered(ActionContext context, Held turn) {
    try {
      turn.releaseIfUnanswered(context);
    } catch (RuntimeException e) {
      log.warn(
          "the claim on sub-agent task {} could not be given back; later answers are refused",
          TaskId.of(turn.agent().name(), turn.row().snapshotId()),
          e);
    }
  }

  /**
   * The conversation with the answered parts joined into the calls the model made, and their
   * results in place of the answers. A call held again ({@value #ASKED_AGAIN}) is dropped with its
   * answer, and its result goes to the tool message of the resume before it.
   */
  private static List<Message> answer(List<Message> messages, Map<CallKey, JsonNode> outputs) {
    List<Message> joined = PerCallInterrupts.join(messages);
    int last = joined.size() - 1;
    if (askedAgain(joined) >= 0) {
      joined = joined.subList(0, last - 1);
      last -= 2;
    }
    if (last < 0 || joined.get(last).role() != Role.TOOL) {
      return joined;
    }
    Message tool = joined.get(last);
    List<Part> content = new ArrayList<>();
    for (Part part : tool.content()) {
      if (!(part instanceof ToolResponsePart responsePart)) {
        content.add(part);
        continue;
      }
      ToolResponse response = responsePart.toolResponse();
      JsonNode output = outputs.get(CallKey.of(response));
      content.add(
          output == null ? part : Part.toolResponse(response.name(), response.ref(), output));
    }
    List<Message> answered = new ArrayList<>(joined.subList(0, last));
    answered.add(tool.withContent(content));
    return answered;
  }

  /**
   * The index of the call held again ({@value #ASKED_AGAIN}) that a joined conversation answers,
   * after the tool message of the resume before it; -1 when it answers no such call.
   */
  private static int askedAgain(List<Message> joined) {
    int held = joined.size() - 2;
    return held >= 1
            && Metadata.isTrue(joined.get(held).metadata(), ASKED_AGAIN)
            && joined.get(held - 1).role() == Role.TOOL
        ? held
        : -1;
  }

  private static @Nullable ToolRequestPart restartOf(Resume resume, ToolRequest call) {
    return resume.restart().stream()
        .filter(p -> same(p.toolRequest(), call))
        .findFirst()
        .orElse(null);
  }

  private static @Nullable ToolResponsePart respondOf(Resume resume, ToolRequest call) {
    return resume.respond().stream()
        .filter(
            p ->
                p.toolResponse().name().equals(call.name())
                    && Objects.equals(p.toolResponse().ref(), call.ref()))
        .findFirst()
        .orElse(null);
  }

  private static boolean same(ToolRequest a, ToolRequest b) {
    return a.name().equals(b.name()) && Objects.equals(a.ref(), b.ref());
  }
}
