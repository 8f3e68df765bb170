package dev.baton.internal.agent;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Registry;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.Lifecycle;
import java.util.function.Function;

/**
 * A turn sent to another process, tracked by the Baton instance that sends it: a closing instance
 * refuses it, and cancels it once its grace period is over. The call runs under a child of the
 * caller's cancellation, which the instance cancels.
 */
final class TrackedTurn {
  private TrackedTurn() {}

  static <T> T run(Registry registry, ActionContext context, Function<ActionContext, T> call) {
    Cancellation turn = context.cancellation().child();
    Lifecycle.Tracked admitted;
    try {
      admitted = lifecycle(registry).admit(turn::cancel);
    } catch (BatonException closed) {
      turn.release();
      throw closed;
    }
    try {
      return call.apply(context.withCancellation(turn));
    } finally {
      admitted.close();
      turn.release();
    }
  }

  /** What owns the instance's turns and threads. */
  static Lifecycle lifecycle(Registry registry) {
    return DefaultRegistry.lifecycle(registry);
  }
}
