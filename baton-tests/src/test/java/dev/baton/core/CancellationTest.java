package dev.baton.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CancellationTest {

  @Test
  void listenersRunOnceAndLateListenersRunAtOnce() {
    Cancellation signal = Cancellation.create();
    AtomicInteger runs = new AtomicInteger();
    signal.onCancel(runs::incrementAndGet);
    signal.cancel();
    signal.cancel();
    assertThat(runs).hasValue(1);
    signal.onCancel(runs::incrementAndGet);
    assertThat(runs).hasValue(2);
  }

  @Test
  void aChildFollowsItsParentButNotTheOtherWayRound() {
    Cancellation parent = Cancellation.create();
    Cancellation child = parent.child();
    Cancellation otherChild = parent.child();
    otherChild.cancel();
    assertThat(parent.isCancelled()).isFalse();
    parent.cancel(new BatonException(Status.DEADLINE_EXCEEDED, "too slow"));
    assertThat(child.isCancelled()).isTrue();
    assertThatThrownBy(child::throwIfCancelled)
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED));
  }

  @Test
  void everyThrowerGetsItsOwnExceptionCausedByTheReason() {
    Cancellation signal = Cancellation.create();
    BatonException reason = new BatonException(Status.DEADLINE_EXCEEDED, "too slow");
    signal.cancel(reason);

    BatonException first = catchBaton(signal::throwIfCancelled);
    BatonException second = catchBaton(signal::throwIfCancelled);
    first.addSuppressed(new IllegalStateException("cleanup failed"));

    assertThat(first).isNotSameAs(second).isNotSameAs(reason).hasCause(reason);
    assertThat(second.getSuppressed()).isEmpty();
    assertThat(reason.getSuppressed()).isEmpty();
    assertThat(second.status()).isEqualTo(Status.DEADLINE_EXCEEDED);
    assertThat(second).hasMessage("too slow");
    assertThat(signal.reason()).isNotSameAs(signal.reason()).hasCause(reason);
  }

  private static BatonException catchBaton(Runnable action) {
    try {
      action.run();
    } catch (BatonException e) {
      return e;
    }
    throw new AssertionError("nothing was thrown");
  }

  @Test
  void aFailingListenerDoesNotKeepTheOthersFromRunning() {
    Cancellation signal = Cancellation.create();
    AtomicInteger runs = new AtomicInteger();
    signal.onCancel(runs::incrementAndGet);
    signal.onCancel(
        () -> {
          throw new IllegalStateException("listener bug");
        });
    signal.onCancel(runs::incrementAndGet);
    signal.cancel();
    assertThat(runs).hasValue(2);
  }

  @Test
  void removedListenersDoNotRun() {
    Cancellation signal = Cancellation.create();
    AtomicInteger runs = new AtomicInteger();
    signal.onCancel(runs::incrementAndGet).close();
    signal.cancel();
    assertThat(runs).hasValue(0);
  }

  @Test
  void neverIsNeverCancelled() {
    Cancellation.never().cancel();
    assertThat(Cancellation.never().isCancelled()).isFalse();
    assertThat(Cancellation.never().child().isCancelled()).isFalse();
  }

  @Test
  void aPauseEndsWhenItsTimeIsUpOrAtOnceWhenCancelled() throws Exception {
    Cancellation signal = Cancellation.create();
    signal.pause(Duration.ofMillis(1));
    signal.pause(Duration.ZERO);

    CompletableFuture<Void> paused =
        CompletableFuture.runAsync(() -> signal.pause(Duration.ofDays(1)));
    signal.cancel(new BatonException(Status.DEADLINE_EXCEEDED, "out of time"));

    assertThatThrownBy(paused::join)
        .cause()
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED));
    assertThatThrownBy(() -> signal.pause(Duration.ZERO))
        .as("a cancelled signal does not pause at all")
        .isInstanceOf(BatonException.class);
  }
}
