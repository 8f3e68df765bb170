package dev.baton.mcp.internal.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ToolCallsTest {
  // A thread a call, since the calls block: the common pool may have one thread only.
  private static final Executor THREADS = task -> Thread.ofVirtual().start(task);

  private final ToolCalls calls = new ToolCalls();

  @Test
  void aCancellationThatOvertakesItsCallCancelsTheCallWhenItRegisters() {
    CallKey key = CallKey.of("session", 7);
    calls.cancel(key);

    Cancellation seen = calls.run("session", key, cancellation -> cancellation);
    Cancellation other =
        calls.run("session", CallKey.of("session", 8), cancellation -> cancellation);

    assertThat(seen.isCancelled()).isTrue();
    assertThat(seen.reason().status()).isEqualTo(Status.CANCELLED);
    assertThat(other.isCancelled()).isFalse();
  }

  @Test
  void theEndOfASessionCancelsItsCallsAndNoOthers() throws Exception {
    CountDownLatch running = new CountDownLatch(2);
    CompletableFuture<Cancellation> ended = runUntilCancelled("stdio-1", running);
    CompletableFuture<Cancellation> other = runUntilCancelled("stdio-2", running);
    running.await();

    calls.cancelSession("stdio-1");

    assertThat(ended.get(30, TimeUnit.SECONDS).isCancelled()).isTrue();
    assertThat(other).isNotDone();
    calls.cancelAll();
    assertThat(other.get(30, TimeUnit.SECONDS).reason().status()).isEqualTo(Status.UNAVAILABLE);
  }

  private CompletableFuture<Cancellation> runUntilCancelled(
      String session, CountDownLatch running) {
    return CompletableFuture.supplyAsync(
        () ->
            calls.run(
                session,
                null,
                cancellation -> {
                  CountDownLatch cancelled = new CountDownLatch(1);
                  try (var unused = cancellation.onCancel(cancelled::countDown)) {
                    running.countDown();
                    await(cancelled);
                  }
                  return cancellation;
                }),
        THREADS);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
