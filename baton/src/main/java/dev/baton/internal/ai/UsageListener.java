package dev.baton.internal.ai;

import dev.baton.ai.GenerationUsage;
import dev.baton.core.ContextKey;

/**
 * Told the usage of every model call a generate loop makes under a context that carries it. The
 * agent runtime installs one to add each call to its session's usage; a budget installs one to
 * count what a run spends. Called on the thread that made the call; implementations must be
 * thread-safe, since nested generate calls may run in parallel tool calls.
 */
@FunctionalInterface
public interface UsageListener {
  /** The context attribute generate reports to. */
  ContextKey<UsageListener> KEY = ContextKey.of("baton.usage", UsageListener.class);

  void onUsage(GenerationUsage usage);
}
