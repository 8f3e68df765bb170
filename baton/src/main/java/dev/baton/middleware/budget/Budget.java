package dev.baton.middleware.budget;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Hooks;
import dev.baton.ai.Middleware;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.core.Defaulted;
import dev.baton.internal.middleware.budget.BudgetRun;
import dev.baton.middleware.Retry;
import dev.baton.middleware.ToolApproval;
import dev.baton.middleware.compression.ContextCompression;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Caps the usage a generate run, or an agent session, may spend.
 *
 * <p>{@link #limit} caps each of its non-zero fields, {@code custom} key by key: {@code
 * inputTokens} and {@code outputTokens}, but also {@code thoughtsTokens}, {@code outputImages}, or
 * a provider-reported cost such as {@code custom.cost}. Usage counts as models report it, under the
 * convention {@link GenerationUsage} documents, so {@code outputTokens} leaves out {@code
 * thoughtsTokens}: cap both to cap what a model generates. A model that reports no usage spends
 * nothing, and only calls that report their usage count: a model called outside generate (as a
 * background model's operation would be) does not.
 *
 * <p><b>What counts.</b> With the {@link BudgetScope#RUN run scope} (the default), every model call
 * made under the generate call: the tool loop's, its hooks', nested generates', and those of the
 * agents its tools run in this process (a delegation, in the foreground or the background). Each
 * attempt a retry makes counts. With the {@link BudgetScope#SESSION session scope}, the session's
 * recorded usage when the run starts plus the same calls. The calls of a remote agent stay in its
 * own process and are not counted. Nor are those of a tool that calls a model directly ({@code
 * Model.run}, outside a generate call): only generate reports a call's usage, and middleware that
 * reports its own calls (as {@link ContextCompression}'s summariser does), so a tool whose model
 * calls should count makes them through {@code generate}.
 *
 * <p><b>When it stops.</b> The limit is checked before each model call of the tool loop. Once a
 * capped field has reached its limit (spent at least the limit), the run stops with a {@code
 * BudgetExceededException} ({@code RESOURCE_EXHAUSTED}, with a {@link BudgetExceeded} as its
 * details), which reports it as aborted rather than failed and keeps its partial response: an agent
 * turn stopped so ends {@code aborted}, and a server-managed agent saves its progress as an {@code
 * aborted} snapshot to continue from ({@code AgentInit.continueFrom}, with the full limit of a new
 * run). A turn already under way finishes, so a run can overshoot by one turn, and with a {@link
 * Retry} in the chain one turn can be several billed calls. Because the check sits outside every
 * {@code wrapModel} hook, a retry or fallback middleware never sees the stop, whatever the order in
 * {@code use(...)}.
 *
 * <p>A budget stops only the run it wraps. A background delegation the run started counts while the
 * run lasts, and keeps running, and spending, after the run stops. Budgets in one chain count the
 * same calls and claim the same holds, so stacking them enforces all their limits together.
 *
 * <p><b>Holds.</b> With {@link #interrupt} set, a run-scoped budget pauses instead: the tool calls
 * that would lead to the next turn are held as interrupts, for the caller to decide whether to
 * continue. The hold happens only when the run is over its limit by the time its tool calls start
 * (when the model call that asked for them returned): a run that goes over while its tools run (a
 * nested generate, a sub-agent) has nothing left to hold, and the check before the next model call
 * stops it. {@link #interrupted} claims each held call and reads the {@link BudgetExceeded} it
 * carries, and a restart with a {@link BudgetDecision} decides it. A response to a hold, which
 * stands in for the tool's output, refuses it. A sub-agent's hold that the Agents middleware
 * forwards to its orchestrator ({@code metadata.interrupt} with {@code subAgent}) reads as a hold
 * too, and is decided the same way, but its decision goes to the sub-agent's budget: the
 * orchestrator's budgets ignore it. Approving every hold of a response:
 *
 * <pre>{@code
 * Resume resume = Resume.restart(response.interrupts().stream()
 *     .filter(part -> Budget.interrupted(part).isPresent())
 *     .map(part -> BudgetDecision.approve().restart(part))
 *     .toArray(ToolRequestPart[]::new));
 * }</pre>
 *
 * <p>A session-scoped budget cannot pause, since a later turn would start over its limit with
 * nothing to pause on; the combination is rejected.
 *
 * <p><b>Across resumes</b> a run-scoped budget counts one run. The run's final message records what
 * it spent ({@code metadata.budget.spent}, a {@link GenerationUsage}), and a resume of that
 * conversation continues from there, so answering another middleware's interrupt, such as a {@link
 * ToolApproval} hold, does not renew the limit; only approving the budget's own hold does. A
 * conversation the caller sends back without that record, which a client-managed history can do,
 * starts the count over.
 *
 * <p>Usable by name as {@code genkit-middleware-exp/budget} with JSON config ({@code {"limit":
 * {"totalTokens": 100000, "custom": {"cost": 0.5}}, "scope": "run", "interrupt": true}}). Immutable
 * and thread-safe. A limit that caps nothing or is negative, and a session scope with interrupt,
 * fail the generate call with {@code INVALID_ARGUMENT} when the hooks are built; a session scope
 * outside a server-managed agent with {@code FAILED_PRECONDITION}.
 *
 * @param limit the usage the run or session may spend: each non-zero field is a cap, {@code custom}
 *     key by key
 * @param scope what the limit counts against; null means {@link BudgetScope#RUN}
 * @param interrupt pause a run-scoped budget for approval instead of stopping the run
 */
public record Budget(
    @JsonPropertyDescription(
            "Usage the run or session may spend. Each non-zero field is a cap, custom key by key.")
        GenerationUsage limit,
    @JsonPropertyDescription(
            "What the limit counts against: \"run\" (the default) for one generate call and the"
                + " sub-agents it runs, or \"session\" for the agent session's recorded usage plus"
                + " the run's.")
        @Defaulted
        BudgetScope scope,
    @JsonPropertyDescription(
            "Pause a run-scoped budget for approval, holding the tool calls that would lead to the"
                + " next turn, instead of stopping the run.")
        @Defaulted
        boolean interrupt)
    implements Middleware {

  /** The registered name, under which JSON config reaches it. */
  public static final String NAME = "genkit-middleware-exp/budget";

  public Budget {
    limit = limit == null ? GenerationUsage.EMPTY : limit;
    scope = scope == null ? BudgetScope.RUN : scope;
  }

  /** A budget that caps every model call of one run (the run scope) and stops the run at it. */
  public static Budget perRun(GenerationUsage limit) {
    return new Budget(limit, BudgetScope.RUN, false);
  }

  /**
   * A budget that caps the agent session's usage (the session scope) and stops the run at it; it
   * needs a server-managed agent.
   */
  public static Budget perSession(GenerationUsage limit) {
    return new Budget(limit, BudgetScope.SESSION, false);
  }

  /** This budget, pausing for approval at its limit instead of stopping (run scope only). */
  public Budget withInterrupt(boolean interrupt) {
    return new Budget(limit, scope, interrupt);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Checks the configuration and starts counting this generate call.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for a limit that caps nothing or is negative,
   *     or a session scope with interrupt; {@code FAILED_PRECONDITION} for a session scope outside
   *     a server-managed agent
   */
  @Override
  public Hooks newHooks(ActionContext context) {
    return new BudgetRun(this, context).hooks();
  }

  /**
   * The report a budget hold carries, when {@code part} is a tool call a {@link Budget} held (its
   * {@code metadata.interrupt} is a {@link BudgetExceeded}); empty for any other part.
   */
  public static Optional<BudgetExceeded> interrupted(ToolRequestPart part) {
    var metadata = part.metadata();
    JsonNode data = metadata == null ? null : metadata.get("interrupt");
    if (data == null
        || !data.path("message").isString()
        || !data.path("spent").isObject()
        || !data.path("limit").isObject()) {
      return Optional.empty();
    }
    return Optional.of(Json.convert(data, BudgetExceeded.class));
  }
}
