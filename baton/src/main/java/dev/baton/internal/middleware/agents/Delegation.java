package dev.baton.internal.middleware.agents;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.StateManagement;
import dev.baton.ai.GenerateParams;
import dev.baton.ai.Hooks;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolContext;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolResult;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.ContextKey;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.ai.GenerateRun;
import dev.baton.internal.ai.ToolInterrupt;
import dev.baton.internal.core.Timing;
import dev.baton.internal.middleware.agents.InterruptForwarding.Held;
import dev.baton.internal.middleware.agents.TaskMessages.Result;
import dev.baton.middleware.agents.Agents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Agents middleware within one generate call: its counters, the tasks the conversation may act
 * on, and the conversation it last saw, which history forwarding reads. Its tools, names and
 * instructions are the configuration's {@link DelegationSetup}, shared by every call; the tools
 * find the call's {@code Delegation} on their context ({@link #current}).
 *
 * <p>Thread-safe: the tool calls of one model turn run in parallel.
 */
public final class Delegation {
  private static final Logger log = LoggerFactory.getLogger(Delegation.class);

  static final String MARKER = "agents-instructions";

  /** Where a tool call of this middleware finds the generate call's delegation. */
  private static final ContextKey<Delegation> KEY =
      ContextKey.of("baton.agents.delegation", Delegation.class);

  // Set on a delegation call that restarts an interrupted one (the tool's own context drops the
  // restart data): such a call cannot pause again, so its sub-agent's question is reported as text.
  private static final ContextKey<Boolean> RESTARTED =
      ContextKey.of("baton.agents.restarted", Boolean.class);

  // Set on the first model call of a resume whose sub-agent asked again, which the middleware
  // answers itself (ForwardedAnswers#askAgain); the delegation that set it is the one that answers.
  private static final ContextKey<Delegation> ASKING =
      ContextKey.of("baton.agents.askingAgain", Delegation.class);

  private final DelegationSetup setup;
  private final Agents config;
  private final Registry registry;
  private final AtomicInteger delegations = new AtomicInteger();
  private final AtomicInteger invocations = new AtomicInteger();
  private final TaskScope scope;
  private final TaskResults results;
  // Only a configuration with shared tools (async, or a continuable sub-agent) needs them.
  private final @Nullable BackgroundTasks background;
  private final @Nullable SettleNotices notices;
  private final ForwardedAnswers answers;

  Delegation(DelegationSetup setup, ForwardedAnswers answers) {
    this.answers = answers;
    this.setup = setup;
    this.config = setup.config();
    this.registry = setup.registry();
    this.scope = new TaskScope(setup.resultTools());
    this.results = setup.results();
    this.background =
        setup.hasSharedTools() ? new BackgroundTasks(this, config, scope, results) : null;
    this.notices =
        config.async() && config.notifySettled() ? new SettleNotices(config, this) : null;
  }

  /**
   * The delegation of the generate call a tool of this middleware runs in.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} outside the generate call that offers the
   *     tool
   */
  static Delegation current(ActionContext context) {
    return context
        .get(KEY)
        .orElseThrow(
            () ->
                BatonException.failedPrecondition(
                    "the agents middleware's tools run only in the generate call that offers"
                        + " them"));
  }

  /** This call's background tasks, for the shared tools (which exist only when it has them). */
  BackgroundTasks background() {
    return Objects.requireNonNull(background, "background");
  }

  /** Checks the configuration and starts a generate call's delegation (see {@link Agents}). */
  public static Hooks hooks(Agents config, ActionContext context) {
    DelegationSetup setup = DelegationSetup.of(config, context);
    return new Delegation(setup, ForwardedAnswers.of(setup, context)).hooks(context);
  }

  private Hooks hooks(ActionContext context) {
    if (config.forwardInterrupts()) {
      GenerateRun.of(context)
          .ifPresent(
              run ->
                  run.amendFinalMessage(message -> PerCallInterrupts.split(message, setup::owns)));
    }
    return Hooks.builder()
        .tools(setup.tools())
        .wrapGenerate(
            (ctx, original, next) -> {
              // A resume's answers to forwarded interrupts become the sub-agents' results first,
              // so that the scope sees their task IDs.
              GenerateParams params = answers.route(ctx, original, this);
              // Provisional: the notices read it. The model hook below has the final word.
              scope.see(params.request().messages());
              GenerateParams noticed = params;
              if (notices != null && params.iteration() == 0) {
                SettleNotices.Noticed notice =
                    notices.notice(ctx, params, scope, answers.answering());
                if (!notice.asking().isEmpty()) {
                  return notices.ask(notice.params(), notice.asking());
                }
                noticed = notice.params();
              }
              return next.apply(
                  answers.asksAgain() && params.iteration() == 0 ? ctx.with(ASKING, this) : ctx,
                  noticed.withRequest(
                      SystemText.inject(
                          noticed.request(), setup.marker(), setup.instructions(ctx))));
            })
        // The scope is what the model is sent, after every generate hook, so a history that
        // another middleware (ContextCompression) trimmed past a launch result takes that task
        // out of reach, as Genkit says, whatever the order the middleware were given in.
        .wrapModel(
            (ctx, params, next) -> {
              scope.see(params.request().messages());
              // A sub-agent asked again after its answer: its call is held again, not the model's
              // to answer (see ForwardedAnswers).
              if (ctx.get(ASKING).orElse(null) == this) {
                return answers.askAgain(params.request());
              }
              return next.apply(ctx, params);
            })
        .wrapTool(
            (ctx, params, next) -> {
              if (!setup.owns(params.tool().name())) {
                return next.apply(ctx, params);
              }
              ToolRequest call = params.request().toolRequest();
              if (ToolContext.of(ctx).isResumed() && answers.holds(call)) {
                // Answered before the first model call, by the sub-agent (see ForwardedAnswers).
                return ToolResult.output(Json.nodes().nullNode());
              }
              JsonNode question = ToolContext.of(ctx).isResumed() ? null : answers.question(call);
              if (question != null) {
                return ToolResult.interrupt(question);
              }
              try {
                ActionContext delegating = ctx.with(KEY, this);
                return next.apply(
                    ToolContext.of(ctx).isResumed() ? delegating.with(RESTARTED, true) : delegating,
                    params);
              } catch (BatonException e) {
                // Our tools turn every failure into text; what escapes is a call the tool's
                // schema refused. The model made it, so the model gets to fix it.
                if (e.status() != Status.INVALID_ARGUMENT) {
                  throw e;
                }
                return ToolResult.output(
                    Json.toTree(
                        Result.text(
                            "Error: the call was malformed: "
                                + e.getMessage()
                                + ". Call the tool again with valid arguments.",
                            null)));
              }
            })
        .build();
  }

  /** Runs one delegation; every failure becomes a result the model can read. */
  Result delegate(
      ActionContext context, String agent, String task, @Nullable String label, boolean detach) {
    if (task.isBlank()) {
      return Result.text("Error: the task is empty. Describe the task to delegate.", label);
    }
    int invocation = reserve();
    if (invocation < 0) {
      return limitReached(label);
    }
    Agent target;
    try {
      target = AgentLookup.find(registry, agent);
    } catch (BatonException e) {
      return Result.text("Error: " + e.getMessage(), label);
    }
    if (!detach) {
      return run(context, target, AgentInput.text(task), initFor(target), invocation, label);
    }
    AgentMetadata metadata = target.metadata();
    if (metadata != null && !metadata.isAbortable()) {
      refund();
      return Result.text(
          "Error calling agent \""
              + agent
              + "\": this agent lacks a session store that supports background work, so it cannot"
              + " run tasks in the background. Delegate to it without \"background\" instead.",
          label);
    }
    // A background task never gets forwarded history: it runs in its own server-side session.
    return launch(context, target, AgentInput.text(task), AgentInit.NEW, invocation, label, true);
  }

  /**
   * Resumes a sub-agent's interrupted turn with the caller's answers to its forwarded interrupts,
   * and folds its output like a delegation's.
   *
   * @throws ToolInterrupt with the new wrapper, when the resumed turn asks again
   */
  Result answer(ActionContext context, Held turn, Resume resume, @Nullable String label) {
    return run(
        context,
        turn.agent(),
        AgentInput.resume(resume),
        AgentInit.ofSnapshot(turn.row().snapshotId()),
        invocations.incrementAndGet(),
        label);
  }

  /**
   * Folds the sub-agent turn an earlier attempt of the same answer resumed ({@link
   * Held#answeredBy}) as {@link #answer} folded it then, without running the sub-agent again.
   *
   * @throws ToolInterrupt with the new wrapper, when that turn asked again
   */
  Result answered(ActionContext context, Held turn, @Nullable String label) {
    SessionSnapshot resumed = Objects.requireNonNull(turn.answeredBy());
    return settle(
        context,
        turn.agent(),
        turn.answeredOutput(),
        invocations.incrementAndGet(),
        label,
        resumed.createdAt());
  }

  /**
   * Resumes a background task's interrupted turn with the caller's answer, in the background again:
   * as {@code continue_task} does, the resumed turn is a fresh task in the same session, whose ID
   * the result carries.
   */
  Result answerInBackground(
      ActionContext context, Held turn, Resume resume, @Nullable String label) {
    return answeredQuestion(
        turn,
        launch(
            context,
            turn.agent(),
            AgentInput.resume(resume),
            AgentInit.ofSnapshot(turn.row().snapshotId()),
            invocations.incrementAndGet(),
            label,
            false));
  }

  /**
   * The launch result of the background task an earlier attempt of the same answer resumed ({@link
   * Held#answeredBy}), without launching it again.
   */
  Result answeredInBackground(Held turn, @Nullable String label) {
    SessionSnapshot resumed = Objects.requireNonNull(turn.answeredBy());
    return answeredQuestion(turn, started(turn.agent().name(), resumed.snapshotId(), label));
  }

  private static Result answeredQuestion(Held turn, Result launched) {
    return new Result(
        "The user answered the question of task "
            + TaskId.of(turn.agent().name(), turn.row().snapshotId())
            + ". "
            + launched.response(),
        launched.artifacts(),
        launched.taskId(),
        launched.status(),
        launched.name());
  }

  /**
   * Runs a sub-agent to its end and folds its output. A run that leaves a task records it in the
   * conversation's scope; a run that ends on interrupts, when they can be forwarded, interrupts the
   * delegation's call with the wrapped interrupt ({@link InterruptForwarding#wrap}).
   *
   * @throws ToolInterrupt with the wrapped interrupt
   */
  Result run(
      ActionContext context,
      Agent target,
      AgentInput input,
      AgentInit init,
      int invocation,
      @Nullable String label) {
    Instant started = Timing.of(context).now();
    AgentOutput output;
    try {
      output =
          target.run(
              context.without(RESTARTED).withRegistry(registry),
              input,
              init,
              StreamCallback.discard());
    } catch (RuntimeException e) {
      return failure(context, target.name(), e, label);
    }
    return settle(context, target, output, invocation, label, started);
  }

  /**
   * Folds a sub-agent's output, or interrupts the delegation's call with its wrapped interrupt (see
   * {@link #run}).
   *
   * @param started when the call that produced {@code output} started
   */
  private Result settle(
      ActionContext context,
      Agent target,
      AgentOutput output,
      int invocation,
      @Nullable String label,
      Instant started) {
    if (output.finishReason() == AgentFinishReason.INTERRUPTED
        && config.forwardInterrupts()
        && InterruptForwarding.canForward(context, target)) {
      // A restarted delegation (the orchestrator's own approval let it run) cannot pause again:
      // the generate loop fails a restarted call that interrupts. Its question is reported as
      // text, as without forwarding.
      ObjectNode wrapped =
          context.get(RESTARTED).orElse(false)
              ? null
              : InterruptForwarding.wrap(target.name(), output);
      if (wrapped != null) {
        throw new ToolInterrupt(wrapped);
      }
    }
    try {
      Result result = results.fold(context, target, invocation, output, label, started);
      mint(result);
      return result;
    } catch (RuntimeException e) {
      return failure(context, target.name(), e, label);
    }
  }

  /**
   * Starts a sub-agent in the background. A refusal to detach ({@code FAILED_PRECONDITION}) gives
   * back the slot the launch reserved, if it reserved one; a run that settled at once is folded
   * like a synchronous one.
   *
   * @param reserved whether the launch holds a delegation slot ({@link #reserve}); an answer to a
   *     forwarded question resumes a delegation that already counted, and holds none
   */
  Result launch(
      ActionContext context,
      Agent target,
      AgentInput input,
      AgentInit init,
      int invocation,
      @Nullable String label,
      boolean reserved) {
    String agent = target.name();
    Instant started = Timing.of(context).now();
    AgentOutput output;
    try {
      output =
          target.run(
              context.without(RESTARTED).withRegistry(registry),
              input.withDetach(true),
              init,
              StreamCallback.discard());
    } catch (RuntimeException e) {
      return failure(context, agent, e, label);
    }
    if (output.finishReason() == AgentFinishReason.DETACHED && output.snapshotId() != null) {
      return started(agent, output.snapshotId(), label);
    }
    if (output.isFailed()
        && output.error() != null
        && output.error().statusCode() == Status.FAILED_PRECONDITION) {
      if (reserved) {
        refund();
      }
      String hint =
          target.metadata() == null
              ? " If this agent lacks a session store that supports background work, delegate to"
                  + " it without \"background\" instead."
              : "";
      return Result.text(
          "Error calling agent \"" + agent + "\": " + output.error().message() + hint, label);
    }
    Result result = results.fold(context, target, invocation, output, label, started);
    mint(result);
    return result;
  }

  /** A background task that started, brought into the conversation's scope. */
  private Result started(String agent, String snapshotId, @Nullable String label) {
    String taskId = agent + ":" + snapshotId;
    scope.mint(taskId, label);
    return new Result(
        "Background task "
            + taskId
            + " started for agent \""
            + agent
            + "\". Collect the result with "
            + DelegationSetup.sharedToolName(config, BackgroundTasks.CHECK)
            + " or "
            + DelegationSetup.sharedToolName(config, BackgroundTasks.WAIT)
            + ".",
        null,
        taskId,
        "pending",
        label);
  }

  private void mint(Result result) {
    if (result.taskId() != null) {
      scope.mint(result.taskId(), result.name());
    }
  }

  private Result failure(
      ActionContext context, String agent, RuntimeException e, @Nullable String label) {
    context.cancellation().throwIfCancelled();
    BatonException error = BatonException.from(e);
    if (!error.isPublic()) {
      log.warn("delegation to agent {} failed", agent, e);
    }
    // The public text only: the orchestrator's model may repeat it to the user.
    return Result.text(
        "Error calling agent \"" + agent + "\": " + error.toPublicErrorInfo().message(), label);
  }

  /**
   * Reserves a delegation slot, atomically and never counting past the limit, so a refunded slot is
   * really free.
   *
   * @return the delegation's number, which is never reused, or -1 at the limit
   */
  int reserve() {
    int max = config.maxDelegations();
    if (max > 0 && delegations.getAndUpdate(count -> count >= max ? count : count + 1) >= max) {
      return -1;
    }
    return invocations.incrementAndGet();
  }

  /** Gives a slot back, for a refusal that names a retry which can succeed. */
  void refund() {
    if (config.maxDelegations() > 0) {
      delegations.decrementAndGet();
    }
  }

  Result limitReached(@Nullable String label) {
    return Result.text(
        "Delegation limit reached ("
            + config.maxDelegations()
            + "). Complete the task using information already gathered.",
        label);
  }

  /** The names of the configured sub-agents. */
  List<String> agentNames() {
    return setup.agentNames();
  }

  /** The instance's registry, where sub-agents are found. */
  Registry registry() {
    return registry;
  }

  /** History goes only to client-managed agents; a server-managed one owns its session. */
  private AgentInit initFor(Agent target) {
    AgentMetadata metadata = target.metadata();
    boolean clientManaged =
        metadata != null && metadata.stateManagement() == StateManagement.CLIENT;
    if (!clientManaged || config.historyLength() <= 0) {
      return AgentInit.NEW;
    }
    List<Message> recent = new ArrayList<>();
    for (Message message : scope.history()) {
      if (message.role() != Role.USER && message.role() != Role.MODEL) {
        continue;
      }
      List<Part> text =
          message.content().stream()
              .filter(p -> p instanceof TextPart t && !t.text().isEmpty())
              .map(p -> (Part) Part.text(((TextPart) p).text()))
              .toList();
      if (!text.isEmpty()) {
        recent.add(new Message(message.role(), text));
      }
    }
    int from = Math.max(0, recent.size() - config.historyLength());
    return AgentInit.ofState(
        SessionState.empty().withMessages(recent.subList(from, recent.size())));
  }
}
