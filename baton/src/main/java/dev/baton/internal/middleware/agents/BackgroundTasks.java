package dev.baton.internal.middleware.agents;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolContext;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.agent.UsageTrees;
import dev.baton.internal.ai.ToolInterrupt;
import dev.baton.internal.middleware.agents.TaskMessages.Continue;
import dev.baton.internal.middleware.agents.TaskMessages.ContinueAsync;
import dev.baton.internal.middleware.agents.TaskMessages.Report;
import dev.baton.internal.middleware.agents.TaskMessages.Reports;
import dev.baton.internal.middleware.agents.TaskMessages.Result;
import dev.baton.internal.middleware.agents.TaskMessages.TaskIds;
import dev.baton.internal.middleware.agents.TaskMessages.Wait;
import dev.baton.middleware.agents.Agents;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The shared tools of the Agents middleware within one generate call: {@code
 * check_background_tasks}, {@code wait_for_background_tasks} and {@code abort_background_tasks}
 * (with {@code async}), and {@code continue_task} (when some sub-agent may be server-managed).
 *
 * <p>Each task is read through its sub-agent's companions, so a remote sub-agent's tasks work the
 * same way. Distinct IDs are read concurrently and a repeated one once; one report's failure never
 * fails the call. A settled report (completed, failed, aborted) is kept for the rest of the
 * generate call: the task is not read again, nor its artifacts merged twice.
 *
 * <p>Thread-safe.
 */
final class BackgroundTasks {
  static final String CHECK = "check_background_tasks";
  static final String WAIT = "wait_for_background_tasks";
  static final String ABORT = "abort_background_tasks";
  static final String CONTINUE = "continue_task";

  private static final String NO_IDS =
      "No task IDs given. Pass the taskId values returned by background delegations.";
  private static final String STOPPED_WAITING =
      "Stopped waiting; the pending tasks are still running. Check them again later.";
  // Longer than any Duration can say: a timeout this long is no timeout at all.
  private static final long UNBOUNDED_SECONDS = Long.MAX_VALUE / 1_000_000_000L;

  private final Delegation delegation;
  private final Agents config;
  private final TaskScope scope;
  private final TaskResults results;
  private final TaskContinuation continuation;
  private final Map<String, Report> settled = new ConcurrentHashMap<>();

  BackgroundTasks(Delegation delegation, Agents config, TaskScope scope, TaskResults results) {
    this.delegation = delegation;
    this.config = config;
    this.scope = scope;
    this.results = results;
    this.continuation = new TaskContinuation(delegation, config, this);
  }

  /**
   * The shared tools a configuration registers. They act on the background tasks of the generate
   * call they run in.
   */
  static List<Tool<?, ?>> tools(Agents config, boolean continuable) {
    List<Tool<?, ?>> tools = new ArrayList<>();
    if (config.async()) {
      tools.add(
          reportTool(
              config,
              DelegationSetup.sharedToolName(config, CHECK),
              "Reports the current status of background tasks without waiting: pending,"
                  + " completed (with the sub-agent's response and artifacts), failed, aborting,"
                  + " aborted, expired or unknown.",
              TaskIds.class,
              (ctx, in) -> of(ctx.context()).check(ctx.context(), in.taskIds())));
      tools.add(
          reportTool(
              config,
              DelegationSetup.sharedToolName(config, WAIT),
              "Waits until background tasks settle and reports them, as the check does. A wait"
                  + " that runs out returns the current statuses with timedOut set.",
              Wait.class,
              (ctx, in) ->
                  of(ctx.context())
                      .waitFor(ctx.context(), in.taskIds(), in.timeoutSeconds(), in.waitFor())));
      tools.add(
          Tool.create(
              DelegationSetup.sharedToolName(config, ABORT),
              "Stops background tasks whose results are no longer needed, and reports each where"
                  + " the stop left it. It never waits: a finished task keeps its result, and a"
                  + " running one reports aborting while it saves its progress.",
              TaskIds.class,
              Reports.class,
              (ctx, in) -> of(ctx.context()).abort(ctx.context(), in.taskIds())));
    }
    if (continuable) {
      String description =
          "Continues a delegated task by its taskId: a failed or aborted one from the progress it"
              + " saved (instructions steer the retry), one whose worker died from before it"
              + " started, and a completed one with follow-up instructions, in the sub-agent's own"
              + " session. A task that stopped on an interrupt cannot be continued.";
      tools.add(
          config.async()
              ? Tool.create(
                  DelegationSetup.sharedToolName(config, CONTINUE),
                  description,
                  ContinueAsync.class,
                  Result.class,
                  (ctx, in) ->
                      of(ctx.context())
                          .continuation
                          .resume(
                              ctx.context(),
                              in.taskId(),
                              in.instructions(),
                              Boolean.TRUE.equals(in.background()),
                              in.name()))
              : Tool.create(
                  DelegationSetup.sharedToolName(config, CONTINUE),
                  description,
                  Continue.class,
                  Result.class,
                  (ctx, in) ->
                      of(ctx.context())
                          .continuation
                          .resume(
                              ctx.context(), in.taskId(), in.instructions(), false, in.name())));
    }
    return tools;
  }

  /**
   * The check or the wait tool. With forwarded interrupts its output schema accepts any value, as a
   * delegation tool's does: a caller's response to an interrupted task's question stands in for the
   * report until the resumed task's launch replaces it ({@link ForwardedAnswers}).
   */
  private static <I> Tool<?, ?> reportTool(
      Agents config,
      String name,
      String description,
      Class<I> input,
      BiFunction<ToolContext, I, Reports> function) {
    if (config.forwardInterrupts()) {
      return Tool.create(
          name,
          description,
          input,
          JsonNode.class,
          (ctx, in) -> Json.toTree(function.apply(ctx, in)));
    }
    return Tool.create(name, description, input, Reports.class, function);
  }

  /** Whether a shared tool reports on tasks, so that an interrupted task ends its call. */
  static boolean reports(Agents config, String tool) {
    return tool.equals(DelegationSetup.sharedToolName(config, CHECK))
        || tool.equals(DelegationSetup.sharedToolName(config, WAIT));
  }

  /** The background tasks of the generate call a shared tool runs in. */
  private static BackgroundTasks of(ActionContext context) {
    return Delegation.current(context).background();
  }

  // ---- the tools -----------------------------------------------------------------------------

  Reports check(ActionContext context, List<String> ids) {
    if (ids.isEmpty()) {
      return Reports.note(NO_IDS);
    }
    return forward(
        new Reports(
            each(ids, id -> report(context, context, id, AgentSnapshots::get)), null, null));
  }

  /**
   * Ends the tool call on the first interrupted task's question ({@link Agents#forwardInterrupts}),
   * so the orchestrator's turn ends interrupted as for a synchronous delegation. Another
   * interrupted task asks again at the next check.
   *
   * @throws ToolInterrupt with the task's wrapped interrupt
   */
  private static Reports forward(Reports reports) {
    for (Report report : reports.tasks()) {
      if (report.interrupt() != null) {
        throw new ToolInterrupt(report.interrupt());
      }
    }
    return reports;
  }

  /**
   * Waits for the tasks: all of them, or the first to settle. A zero or absent timeout waits until
   * they settle, a negative one returns at once, and {@code maxWaitSeconds} bounds every wait. A
   * task the wait stops waiting for is reported as it currently stands, without an error.
   *
   * @throws BatonException the caller's own cancellation, when it is cancelled
   */
  Reports waitFor(
      ActionContext context,
      List<String> ids,
      @Nullable Long timeoutSeconds,
      @Nullable String waitFor) {
    if (ids.isEmpty()) {
      return Reports.note(NO_IDS);
    }
    long timeout = timeoutSeconds == null ? 0 : timeoutSeconds;
    if (timeout < 0) {
      return settleNote(check(context, ids));
    }
    long bound = config.maxWaitSeconds();
    if (bound > 0 && (timeout == 0 || timeout > bound)) {
      timeout = bound;
    }
    boolean first = "first".equals(waitFor);
    // One signal ends every task's wait: the deadline, or with "first" the first task to settle.
    Cancellation stop = context.cancellation().child();
    CompletableFuture<Void> over = new CompletableFuture<>();
    if (timeout > 0 && timeout < UNBOUNDED_SECONDS) {
      over.orTimeout(timeout, TimeUnit.SECONDS)
          .exceptionally(
              timedOut -> {
                stop.cancel(BatonException.of(Status.DEADLINE_EXCEEDED, "the wait ran out"));
                return null;
              });
    }
    try {
      ActionContext waiting = context.withCancellation(stop);
      List<Report> reports =
          each(
              ids,
              id -> {
                Report report = report(waiting, context, id, AgentSnapshots::waitFor);
                if (first && (report.isSettled() || report.interrupt() != null)) {
                  stop.cancel();
                }
                return report;
              });
      context.cancellation().throwIfCancelled();
      return forward(settleNote(new Reports(reports, null, null)));
    } finally {
      over.complete(null);
      stop.release();
    }
  }

  /**
   * Aborts the tasks, never blocking on them: a pending task's row becomes aborted (its worker
   * stops and saves its progress), and every task reports where the stop left it.
   */
  Reports abort(ActionContext context, List<String> ids) {
    if (ids.isEmpty()) {
      return Reports.note(NO_IDS);
    }
    return new Reports(
        each(
            ids,
            id ->
                report(
                    context,
                    context,
                    id,
                    (snapshots, snapshotId) -> {
                      SessionSnapshot row = snapshots.get(snapshotId);
                      SnapshotStatus status = row.statusOrCompleted();
                      if (status == SnapshotStatus.PENDING || status == SnapshotStatus.EXPIRED) {
                        snapshots.abort(snapshotId);
                        row = snapshots.get(snapshotId);
                      }
                      return row;
                    })),
        null,
        null);
  }

  // ---- reading one task ----------------------------------------------------------------------

  /** How a report reads a task's snapshot. */
  @FunctionalInterface
  interface Read {
    SessionSnapshot apply(AgentSnapshots snapshots, String snapshotId);
  }

  /**
   * One task's report. A settled report is kept and returned again; a task outside this
   * conversation, or one that cannot be read, reports {@code unknown}. A read stopped by the wait's
   * own signal (its deadline, or another task settling first) reports the task as it stands now.
   *
   * @param context the context of the read, which a wait's signal may cancel
   * @param caller the tool call's own context
   */
  Report report(ActionContext context, ActionContext caller, String id, Read read) {
    TaskScope.Known known = scope.find(id);
    if (known == null) {
      return Report.error(
          id, null, null, "unknown", "Task \"" + id + "\" was not started in this conversation.");
    }
    Report kept = settled.get(id);
    if (kept != null) {
      return kept.withName(known.label());
    }
    TaskId task;
    try {
      task = TaskId.parse(id, delegation.agentNames());
    } catch (BatonException e) {
      return Report.error(id, known.label(), null, "unknown", String.valueOf(e.getMessage()));
    }
    SessionSnapshot row;
    Agent agent;
    try {
      agent = AgentLookup.find(delegation.registry(), task.agent());
      row = read.apply(agent.snapshots(context), task.snapshotId());
    } catch (RuntimeException e) {
      BatonException error = BatonException.from(e);
      if (context.cancellation().isCancelled()
          && !caller.cancellation().isCancelled()
          && isStop(error)) {
        return current(caller, task, known);
      }
      return TaskResults.unreadable(id, task, known.label(), error);
    }
    Report held = interrupted(context, agent, task, row, known.label());
    if (held != null) {
      return held;
    }
    Report report = results.fromRow(context, task, row, known.label());
    if (isFinal(report)) {
      collect(caller, id, row);
      settled.put(id, report);
    }
    return report;
  }

  /**
   * A report that first found the task settled for good collects its spend into the turn's usage
   * tree if an earlier turn's tree left it running ({@link UsageTrees#collect}). A task an earlier
   * report found settled was collected then, or had settled in the tree already.
   */
  private void collect(ActionContext caller, String id, SessionSnapshot row) {
    if (!scope.reportedSettled(id)) {
      UsageTrees.collect(caller, scope.history(), row);
    }
  }

  /** Whether a report found the task settled for good: completed, failed or aborted. */
  private static boolean isFinal(Report report) {
    return report.isSettled() && !report.status().equals("expired");
  }

  /** The task as it stands, for a wait that stopped waiting for it; pending if unreadable. */
  private Report current(ActionContext caller, TaskId task, TaskScope.Known known) {
    try {
      Agent agent = AgentLookup.find(delegation.registry(), task.agent());
      SessionSnapshot row = agent.snapshots(caller).get(task.snapshotId());
      Report held = interrupted(caller, agent, task, row, known.label());
      if (held != null) {
        return held;
      }
      Report report = results.fromRow(caller, task, row, known.label());
      if (isFinal(report)) {
        collect(caller, task.toString(), row);
      }
      return report;
    } catch (RuntimeException e) {
      return Report.status(task, known.label(), "pending");
    }
  }

  /**
   * The report of a task that stopped on a question, with forwarded interrupts: {@code interrupted}
   * while its caller can still answer it through the orchestrator, {@code failed} once its session
   * has moved on. Null for any other task, which the row's ordinary report describes.
   *
   * <p>Its turn has ended, so the report collects what the turn spent until the question into the
   * current turn's usage tree, as for a settled task ({@link UsageTrees#collect}): the task that
   * resumes it after the answer spends in a turn of its own, collected when it settles.
   */
  private @Nullable Report interrupted(
      ActionContext context,
      Agent agent,
      TaskId task,
      SessionSnapshot row,
      @Nullable String label) {
    if (!config.forwardInterrupts()
        || row.finishReason() != AgentFinishReason.INTERRUPTED
        || !InterruptForwarding.canForward(agent)) {
      return null;
    }
    ObjectNode wrapped;
    try {
      wrapped = InterruptForwarding.wrapTask(context, agent, task, row, label);
    } catch (RuntimeException unreadable) {
      // The session's latest row could not be read: the task reports as its row says.
      return null;
    }
    if (wrapped != null) {
      UsageTrees.collect(context, scope.history(), row);
      return Report.interrupted(task, label, wrapped);
    }
    return Report.error(
        task.toString(),
        label,
        task.agent(),
        "failed",
        "The sub-agent stopped on a question that can no longer be answered here: its session"
            + " has moved on since (the question was answered, and the work went on in a later"
            + " task).");
  }

  /** Whether an error is a wait's own stop rather than a failure of the task. */
  private static boolean isStop(BatonException error) {
    return error.status() == Status.CANCELLED || error.status() == Status.DEADLINE_EXCEEDED;
  }

  /** The conversation's own scope, for continue_task. */
  TaskScope scope() {
    return scope;
  }

  TaskResults results() {
    return results;
  }

  /** A wait that left tasks unsettled (still running, or still saving after an abort) says so. */
  private static Reports settleNote(Reports reports) {
    boolean unsettled =
        reports.tasks().stream()
            .anyMatch(r -> r.status().equals("pending") || r.status().equals("aborting"));
    return unsettled
        ? new Reports(reports.tasks(), true, STOPPED_WAITING)
        : new Reports(reports.tasks(), false, null);
  }

  /**
   * Reports on each distinct ID, concurrently, in the order given; a repeated ID is read once and
   * its report copied.
   */
  private static List<Report> each(List<String> ids, Function<String, Report> reportOf) {
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(ids));
    Map<String, Report> reports = new ConcurrentHashMap<>();
    if (distinct.size() == 1) {
      reports.put(distinct.get(0), reportOf.apply(distinct.get(0)));
    } else {
      try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
        for (String id : distinct) {
          executor.execute(() -> reports.put(id, reportOf.apply(id)));
        }
      }
    }
    List<Report> ordered = new ArrayList<>(ids.size());
    for (String id : ids) {
      Report report = reports.get(id);
      ordered.add(
          report != null
              ? report
              : Report.error(id, null, null, "unknown", "Could not read the task's status."));
    }
    return ordered;
  }
}
