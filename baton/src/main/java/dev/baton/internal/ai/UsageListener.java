package dev.baton.internal.ai;

import dev.baton.ai.GenerationUsage;

/**
 * Told the usage of model calls: each call's usage as the model reported it, with the name the
 * model is registered under. A context carries a chain of listeners, and {@link UsageListeners}
 * says which of them hears which call. Called on the thread that made the call; implementations
 * must be thread-safe, since nested generate calls and sub-agents may run in parallel tool calls,
 * and must not throw.
 */
@FunctionalInterface
public interface UsageListener {
  void onUsage(String model, GenerationUsage usage);
}
