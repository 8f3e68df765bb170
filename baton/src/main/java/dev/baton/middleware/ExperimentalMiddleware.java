package dev.baton.middleware;

import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import java.util.List;

/**
 * The experimental middleware as a plugin named {@code genkit-middleware-exp}, so that Agents,
 * Artifacts, Budget, ContextCompression and ToolCallFeedback can be used by name with JSON config
 * ({@code genkit-middleware-exp/agents}, {@code genkit-middleware-exp/artifacts}, {@code
 * genkit-middleware-exp/budget}, {@code genkit-middleware-exp/contextCompression}, {@code
 * genkit-middleware-exp/toolCallFeedback}), from the Dev UI or a generate request's {@code use}
 * list. Using them as objects needs no plugin.
 *
 * <p>Stateless and thread-safe.
 */
public final class ExperimentalMiddleware implements Plugin {
  public static final String NAME = "genkit-middleware-exp";

  /** The plugin, to give to {@code Baton.builder().plugin(...)}. */
  public ExperimentalMiddleware() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void init(Registry registry) {
    descriptors().forEach(descriptor -> descriptor.register(registry));
  }

  /** The descriptors this plugin registers. */
  public static List<MiddlewareDescriptor> descriptors() {
    return List.of(
        MiddlewareDescriptor.of(
            "Delegate tasks to registered sub-agents via per-agent tools",
            Agents.builder().build()),
        MiddlewareDescriptor.of("Provide read/write tools for session artifacts", new Artifacts()),
        MiddlewareDescriptor.of(
            "Cap the token and cost usage of a run or an agent session, stopping or pausing the"
                + " run at the limit",
            Budget.builder().build()),
        MiddlewareDescriptor.of(
            "Keep a conversation within a context budget by deduplicating, truncating, summarizing"
                + " or dropping older messages",
            ContextCompression.builder().build()),
        MiddlewareDescriptor.of(
            "Answer tool calls to unknown tools or with input failing the tool's schema with what"
                + " is wrong, so the model can fix them, instead of failing the call",
            new ToolCallFeedback()));
  }
}
