package dev.baton.internal.agent;

import dev.baton.core.ContextKey;
import java.util.concurrent.CompletionStage;

/**
 * Told of every run that detaches in this process under a context that carries it, so that a
 * server's graceful shutdown can wait for the background work its requests started: a detached turn
 * of a served agent, and the background delegations of a served orchestrator (detached runs of its
 * sub-agents, launched from inside the turn), however deep.
 */
@FunctionalInterface
public interface DetachedRuns {
  ContextKey<DetachedRuns> KEY = ContextKey.of("baton.detachedRuns", DetachedRuns.class);

  /**
   * A run detached; {@code finalized} completes once its row is final (or finalising it failed),
   * never exceptionally.
   */
  void started(CompletionStage<Void> finalized);
}
