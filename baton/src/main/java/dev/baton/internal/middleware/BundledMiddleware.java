package dev.baton.internal.middleware;

import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Middleware;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.core.Registry;
import dev.baton.internal.core.Lazy;
import dev.baton.middleware.Fallback;
import dev.baton.middleware.Retry;
import dev.baton.middleware.ToolApproval;
import dev.baton.middleware.ToolCallFeedback;
import dev.baton.middleware.agents.Agents;
import dev.baton.middleware.agents.Artifacts;
import dev.baton.middleware.budget.Budget;
import dev.baton.middleware.compression.ContextCompression;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

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

  /**
   * Registers the bundled middleware, the experimental ones only when {@code experimental}. Their
   * descriptors are built when first read: inferring their schemas loads the schema machinery,
   * which an instance that never uses a middleware by name does without.
   */
  public static void register(Registry registry, boolean experimental) {
    List<Entry> entries = new ArrayList<>(stableEntries());
    if (experimental) {
      entries.addAll(experimentalEntries());
    }
    for (Entry entry : entries) {
      registry.registerValue(
          MiddlewareDescriptor.VALUE_TYPE, entry.name(), Lazy.of(entry::descriptor));
    }
  }

  /** The descriptors every instance registers. */
  public static List<MiddlewareDescriptor> stable() {
    return stableEntries().stream().map(Entry::descriptor).toList();
  }

  /** The descriptors only an experimental instance registers. */
  public static List<MiddlewareDescriptor> experimental() {
    return experimentalEntries().stream().map(Entry::descriptor).toList();
  }

  /**
   * A bundled middleware: its registered name, what it does, and its prototype, which JSON config
   * is read over. The prototype is made only with the descriptor: making some (Artifacts, whose
   * tools are built with its class) loads the schema machinery.
   */
  private record Entry(String name, String description, Supplier<Middleware> prototype) {
    MiddlewareDescriptor descriptor() {
      return MiddlewareDescriptor.of(description, prototype.get());
    }
  }

  private static List<Entry> stableEntries() {
    return List.of(
        new Entry(
            "genkit-middleware/retry",
            "Retry failed model calls with exponential backoff and jitter",
            Retry::new),
        new Entry(
            "genkit-middleware/fallback",
            "Try the next model when a model call fails",
            () -> new Fallback(List.of(), Fallback.DEFAULT_STATUSES)),
        new Entry(
            "genkit-middleware/toolApproval",
            "Interrupt tool calls outside an allow list for approval",
            () -> new ToolApproval(List.of())),
        new Entry(
            "genkit-middleware-exp/toolCallFeedback",
            "Answer tool calls to unknown tools or with input failing the tool's schema with what"
                + " is wrong, so the model can fix them, instead of failing the call",
            ToolCallFeedback::new));
  }

  private static List<Entry> experimentalEntries() {
    return List.of(
        new Entry(
            "genkit-middleware-exp/agents",
            "Delegate tasks to registered sub-agents via per-agent tools",
            () -> Agents.builder().build()),
        new Entry(
            "genkit-middleware-exp/artifacts",
            "Provide read/write tools for session artifacts",
            Artifacts::readWrite),
        new Entry(
            Budget.NAME,
            "Cap the token and cost usage of a run or an agent session, stopping or pausing the"
                + " run at the limit",
            () -> Budget.perRun(GenerationUsage.EMPTY)),
        new Entry(
            ContextCompression.NAME,
            "Keep a conversation within a context budget by deduplicating, truncating, summarizing"
                + " or dropping older messages",
            () -> ContextCompression.builder().build()));
  }
}
