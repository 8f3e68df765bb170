package dev.baton.internal.ai;

import dev.baton.ai.GenerationUsage;
import dev.baton.core.ActionContext;
import dev.baton.core.ContextKey;
import org.jspecify.annotations.Nullable;

/**
 * The usage listeners a context carries, and how a model call's usage reaches them.
 *
 * <p>Listeners form a chain on the context, innermost first: adding one derives a context whose
 * chain starts with it and goes on with the caller's, so nesting composes without copying. Generate
 * reports every model call to {@link #report}, which walks the chain outwards, and each listener
 * hears the calls of its own scope:
 *
 * <ul>
 *   <li>a listener added with {@link #hearAll} hears every call made under the context it returned:
 *       the generate loop's own, those of its hooks and nested generates, and those of the agents
 *       that run in this process under it, in the foreground or in the background. A budget counts
 *       a run this way.
 *   <li>an agent's listener, added with {@link #hearAgent} when an agent invocation starts, hears
 *       the calls made under it except those of agent invocations started beneath it, which have
 *       agent listeners of their own: every session counts its own agent's calls, and only those.
 * </ul>
 *
 * <p>So a call made by a sub-agent reaches the sub-agent's listener and every {@code hearAll}
 * listener around it, up to the outermost, but none of the agent listeners of the agents that
 * delegated to it. A remote agent runs in another process's context, where no listener of this one
 * is. Stateless; the chain is immutable and safe to share between threads.
 */
public final class UsageListeners {
  private static final ContextKey<Node> KEY = ContextKey.of("baton.usage", Node.class);

  /** One link of the chain; {@code agent} marks an agent invocation's own listener. */
  private record Node(UsageListener listener, boolean agent, @Nullable Node outer) {}

  private UsageListeners() {}

  /** A context under which {@code listener} hears every model call, nested agents' included. */
  public static ActionContext hearAll(ActionContext context, UsageListener listener) {
    return push(context, listener, false);
  }

  /**
   * A context that starts an agent invocation, whose own calls {@code listener} hears: every call
   * made under it except those of agent invocations started beneath it.
   */
  public static ActionContext hearAgent(ActionContext context, UsageListener listener) {
    return push(context, listener, true);
  }

  /**
   * Tells the listeners of the context's chain, innermost first, about one call of the model
   * registered as {@code model}.
   */
  public static void report(ActionContext context, String model, GenerationUsage usage) {
    boolean nestedAgent = false;
    for (Node node = context.get(KEY).orElse(null); node != null; node = node.outer()) {
      if (!node.agent() || !nestedAgent) {
        node.listener().onUsage(model, usage);
      }
      nestedAgent |= node.agent();
    }
  }

  private static ActionContext push(ActionContext context, UsageListener listener, boolean agent) {
    return context.with(KEY, new Node(listener, agent, context.get(KEY).orElse(null)));
  }
}
