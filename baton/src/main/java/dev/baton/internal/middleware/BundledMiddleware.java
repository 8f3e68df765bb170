package dev.baton.internal.middleware;

import dev.baton.ai.GenerationUsage;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.core.Registry;
import dev.baton.middleware.Fallback;
import dev.baton.middleware.Retry;
import dev.baton.middleware.ToolApproval;
import dev.baton.middleware.ToolCallFeedback;
import dev.baton.middleware.agents.Agents;
import dev.baton.middleware.agents.Artifacts;
import dev.baton.middleware.budget.Budget;
import dev.baton.middleware.compression.ContextCompression;
import java.util.List;

/**
 * The bundled middleware as every Baton instance registers them, so that they can be used by name
 * with JSON config from the Dev UI, a generate request's {@code use} list or {@link
 * MiddlewareDescriptor#lookup}, as Genkit's {@code genkit-middleware} and {@code
 * genkit-middleware-exp} plugins register theirs.
 *
 * <p>Retry, fallback, tool approval and tool-call feedback are always registered; tool-call
 * feedback keeps Genkit's experimental name ({@code genkit-middleware-exp/toolCallFeedback}), but
 * it needs no agent. Agents, artifacts, budget and context compression, which work on agent
 * sessions, are registered only on an instance built with {@code experimental()}, as Genkit's
 * experimental constructors require it.
 */
public final class BundledMiddleware {
  private BundledMiddleware() {}

  /** Registers the bundled middleware, the experimental ones only when {@code experimental}. */
  public static void register(Registry registry, boolean experimental) {
    stable().forEach(descriptor -> descriptor.register(registry));
    if (experimental) {
      experimental().forEach(descriptor -> descriptor.register(registry));
    }
  }

  /** The descriptors every instance registers. */
  public static List<MiddlewareDescriptor> stable() {
    return List.of(
        MiddlewareDescriptor.of(
            "Retry failed model calls with exponential backoff and jitter", new Retry()),
        MiddlewareDescriptor.of(
            "Try the next model when a model call fails",
            new Fallback(List.of(), Fallback.DEFAULT_STATUSES)),
        MiddlewareDescriptor.of(
            "Interrupt tool calls outside an allow list for approval", new ToolApproval(List.of())),
        MiddlewareDescriptor.of(
            "Answer tool calls to unknown tools or with input failing the tool's schema with what"
                + " is wrong, so the model can fix them, instead of failing the call",
            new ToolCallFeedback()));
  }

  /** The descriptors only an experimental instance registers. */
  public static List<MiddlewareDescriptor> experimental() {
    return List.of(
        MiddlewareDescriptor.of(
            "Delegate tasks to registered sub-agents via per-agent tools",
            Agents.builder().build()),
        MiddlewareDescriptor.of(
            "Provide read/write tools for session artifacts", Artifacts.readWrite()),
        MiddlewareDescriptor.of(
            "Cap the token and cost usage of a run or an agent session, stopping or pausing the"
                + " run at the limit",
            Budget.perRun(GenerationUsage.EMPTY)),
        MiddlewareDescriptor.of(
            "Keep a conversation within a context budget by deduplicating, truncating, summarizing"
                + " or dropping older messages",
            ContextCompression.builder().build()));
  }
}
