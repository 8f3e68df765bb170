package dev.baton.internal.middleware.budget;

import dev.baton.agent.Session;
import dev.baton.agent.TurnContext;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Hooks;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ToolContext;
import dev.baton.ai.ToolResult;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.ai.GenerateRun;
import dev.baton.internal.ai.Metadata;
import dev.baton.middleware.budget.Budget;
import dev.baton.middleware.budget.BudgetExceeded;
import dev.baton.middleware.budget.BudgetExceededException;
import dev.baton.middleware.budget.BudgetScope;
import org.jspecify.annotations.Nullable;

/**
 * One {@link Budget} within one generate call: what the run has spent, the checks that stop it, and
 * in interrupt mode the holds.
 *
 * <p>The spend is a base plus every call the run makes ({@link GenerateRun#listen}): for a session
 * scope the session's usage when the run started; for a run scope what the run recorded on the
 * message it resumes, or nothing for a new run or one whose holds were just approved. A run-scoped
 * budget records the spend on the run's final message ({@code metadata.budget.spent}).
 *
 * <p>Thread-safe: calls are counted from any thread, and tool calls check the hold in parallel.
 */
public final class BudgetRun {
  private final Budget config;
  private final BudgetCaps caps;
  private final GenerationUsage base;
  private final BudgetResume resume;
  private GenerationUsage counted = GenerationUsage.EMPTY;
  // The hold for the tool calls of the current iteration, decided when its model call returned.
  private volatile @Nullable BudgetExceeded hold;

  /**
   * @throws BatonException {@code INVALID_ARGUMENT} for a limit that caps nothing, a negative
   *     limit, or a session scope with interrupt; {@code FAILED_PRECONDITION} for a session scope
   *     outside a server-managed agent's turn, or outside a generate call
   */
  public BudgetRun(Budget config, ActionContext context) {
    this.config = config;
    this.caps = BudgetCaps.of(config.limit());
    boolean session = config.scope() == BudgetScope.SESSION;
    if (session && config.interrupt()) {
      throw BatonException.invalidArgument(
          "budget: a session-scoped budget cannot interrupt, since a later turn would start over"
              + " its limit with nothing to pause on; use the run scope");
    }
    GenerateRun run =
        GenerateRun.of(context)
            .orElseThrow(
                () ->
                    BatonException.failedPrecondition(
                        "budget: the middleware works only within a generate call"));
    this.resume = BudgetResume.of(run.options());
    if (session) {
      this.base = sessionUsage(context);
    } else {
      this.base = resume.decided() && resume.approved() ? GenerationUsage.EMPTY : resume.recorded();
    }
    run.listen((model, usage) -> count(usage));
    run.checkResume(this::refusal);
    run.checkModelCalls(this::overLimit);
    if (!session) {
      run.amendFinalMessage(this::record);
    }
  }

  /** The session's usage as the run starts, which needs a server-managed agent's turn. */
  private static GenerationUsage sessionUsage(ActionContext context) {
    boolean serverManaged =
        context.get(TurnContext.KEY).map(turn -> !turn.snapshotId().isEmpty()).orElse(false);
    Session session = Session.from(context).orElse(null);
    if (!serverManaged || session == null) {
      throw BatonException.failedPrecondition(
          "budget: a session-scoped budget needs a server-managed agent (one with a session"
              + " store): client-managed state comes back from the caller, who could drop its"
              + " usage");
    }
    GenerationUsage usage = session.usage();
    return usage == null ? GenerationUsage.EMPTY : usage;
  }

  public Hooks hooks() {
    if (!config.interrupt()) {
      return Hooks.NONE;
    }
    return Hooks.builder()
        .wrapGenerate(
            (ctx, params, next) -> {
              hold = null;
              ModelResponse response = next.apply(ctx, params);
              // The tool calls this response asks for start now: held if the run is over already.
              GenerationUsage now = spent();
              hold = caps.reached(now) ? caps.exceeded(now, what(), null) : null;
              return response;
            })
        .wrapTool(
            (ctx, params, next) -> {
              BudgetExceeded held = hold;
              if (held == null || ToolContext.of(ctx).isResumed()) {
                return next.apply(ctx, params);
              }
              return ToolResult.interrupt(Json.toTree(held));
            })
        .build();
  }

  private synchronized void count(GenerationUsage usage) {
    counted = counted.plus(usage);
  }

  private synchronized GenerationUsage spent() {
    return base.plus(counted);
  }

  private String what() {
    return config.scope() == BudgetScope.SESSION ? "session" : "run";
  }

  /** A resume that refuses the run's holds stops it before the held calls run. */
  private GenerateRun.@Nullable Stop refusal() {
    if (!resume.decided() || resume.approved()) {
      return null;
    }
    return stop(caps.exceeded(spent(), what(), resume.reason() == null ? "" : resume.reason()));
  }

  private GenerateRun.@Nullable Stop overLimit() {
    GenerationUsage now = spent();
    return caps.reached(now) ? stop(caps.exceeded(now, what(), null)) : null;
  }

  private static GenerateRun.Stop stop(BudgetExceeded exceeded) {
    return partial ->
        new BudgetExceededException(exceeded.message(), Json.toTree(exceeded), partial);
  }

  /** The run's final message, recording what the run spent for a resume to continue from. */
  private Message record(Message message) {
    var budget = Json.object();
    budget.set(BudgetResume.SPENT, Json.toTree(spent()));
    return message.withMetadata(
        Metadata.with(message.metadata(), BudgetResume.METADATA_KEY, budget));
  }
}
