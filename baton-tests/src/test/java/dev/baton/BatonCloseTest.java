package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Baton instance owns its agents' work: {@code close()} stops new turns, lets the work in flight
 * end within the shutdown grace, then aborts what is left so that detached runs settle as resumable
 * rows, and closes the plugins that hold resources; {@code drain} waits without closing.
 */
class BatonCloseTest {
  private final InMemorySessionStore store = InMemorySessionStore.create();
  private final List<SlowAgent> agents = new CopyOnWriteArrayList<>();

  @AfterEach
  void releaseWaitingModelCalls() {
    agents.forEach(slow -> slow.release.countDown());
  }

  private SlowAgent slowAgent(Baton baton, String name) {
    SlowAgent slow = new SlowAgent(baton, name, AgentOptions.builder().sessionStore(store).build());
    agents.add(slow);
    return slow;
  }

  private static AgentOutput detach(SlowAgent slow) {
    AgentOutput detached =
        slow.agent.run(slow.baton.context(), AgentInput.text("go").withDetach(true));
    assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    return detached;
  }

  private static boolean refusesTurns(SlowAgent slow) {
    try {
      slow.agent.connect(slow.baton.context(), AgentInit.NEW).close();
      return false;
    } catch (BatonException e) {
      return e.status() == Status.FAILED_PRECONDITION;
    }
  }

  @Test
  void closeWaitsWithinTheGraceForADetachedRunWhichThenCompletes() throws Exception {
    Baton baton = Baton.builder().experimental().shutdownGrace(Duration.ofMinutes(1)).build();
    SlowAgent slow = slowAgent(baton, "slow");
    AgentOutput detached = detach(slow);
    assertThat(slow.waiting.tryAcquire(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Void> closing = CompletableFuture.runAsync(baton::close);
    await().atMost(Duration.ofSeconds(10)).until(() -> refusesTurns(slow));
    assertThat(closing).as("close waits for the run").isNotDone();

    slow.release.countDown();
    closing.get(10, TimeUnit.SECONDS);
    SessionSnapshot row = store.getSnapshot(baton.context(), detached.snapshotId());
    assertThat(row.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(row.state().messages().getLast().text()).isEqualTo("done");
  }

  @Test
  void afterTheGraceADetachedRunIsAbortedWithItsProgressAndAForegroundTurnFails() throws Exception {
    Baton baton = Baton.builder().experimental().shutdownGrace(Duration.ofMillis(100)).build();
    SlowAgent slow = slowAgent(baton, "slow");
    AgentOutput detached = detach(slow);
    CompletableFuture<AgentOutput> foreground =
        CompletableFuture.supplyAsync(
            () -> slow.agent.run(slow.baton.context(), AgentInput.text("go")));
    assertThat(slow.waiting.tryAcquire(2, 10, TimeUnit.SECONDS)).as("both runs wait").isTrue();

    baton.close();

    SessionSnapshot row = store.getSnapshot(baton.context(), detached.snapshotId());
    assertThat(row.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(row.finishReason())
        .as("settled, not still saving")
        .isEqualTo(AgentFinishReason.ABORTED);
    assertThat(row.heartbeatAt()).isNull();
    assertThat(row.state().messages())
        .as("the work it was handed, which a continue re-attempts")
        .extracting(Message::text)
        .containsExactly("go");
    AgentOutput stopped = foreground.get(10, TimeUnit.SECONDS);
    assertThat(stopped.error().status()).isEqualTo("UNAVAILABLE");
  }

  @Test
  void closeWithAGraceOfItsOwnAbortsWhatIsLeftAfterItNotAfterTheInstancesGrace() throws Exception {
    Baton baton = Baton.builder().experimental().shutdownGrace(Duration.ofMinutes(10)).build();
    SlowAgent slow = slowAgent(baton, "slow");
    AgentOutput detached = detach(slow);
    assertThat(slow.waiting.tryAcquire(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture.runAsync(() -> baton.close(Duration.ofMillis(100))).get(30, TimeUnit.SECONDS);

    SessionSnapshot row = store.getSnapshot(baton.context(), detached.snapshotId());
    assertThat(row.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(row.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(refusesTurns(slow)).isTrue();
    assertThatThrownBy(() -> baton.close(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aClosedInstanceRefusesTurnsAndCloseIsIdempotentAcrossThreads() throws Exception {
    Baton baton = Baton.builder().experimental().shutdownGrace(Duration.ofMillis(100)).build();
    SlowAgent slow = slowAgent(baton, "slow");
    AgentOutput detached = detach(slow);
    assertThat(slow.waiting.tryAcquire(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Void> first = CompletableFuture.runAsync(baton::close);
    CompletableFuture<Void> second = CompletableFuture.runAsync(baton::close);
    second.get(30, TimeUnit.SECONDS);
    // Whichever returned first, the run had settled by then.
    assertThat(store.getSnapshot(baton.context(), detached.snapshotId()).finishReason())
        .isEqualTo(AgentFinishReason.ABORTED);
    first.get(30, TimeUnit.SECONDS);
    baton.close();

    assertThatThrownBy(() -> slow.agent.run(slow.baton.context(), AgentInput.text("again")))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
              assertThat(e.getMessage()).contains("Baton is closed");
            });
    assertThat(refusesTurns(slow)).as("connections too").isTrue();
  }

  @Test
  void drainWaitsForWorkInFlightWithoutStoppingNewTurns() throws Exception {
    Baton baton = Baton.builder().experimental().build();
    SlowAgent slow = slowAgent(baton, "slow");
    assertThat(baton.drain(Duration.ZERO)).as("nothing in flight").isTrue();
    AgentOutput detached = detach(slow);
    assertThat(slow.waiting.tryAcquire(10, TimeUnit.SECONDS)).isTrue();

    assertThat(baton.drain(Duration.ZERO)).as("a run in flight").isFalse();
    assertThat(refusesTurns(slow)).isFalse();

    slow.release.countDown();
    assertThat(baton.drain(Duration.ofSeconds(10))).isTrue();
    assertThat(store.getSnapshot(baton.context(), detached.snapshotId()).status())
        .as("drain returns once the row is final")
        .isEqualTo(SnapshotStatus.COMPLETED);
    baton.close();
  }

  @Test
  void closeClosesThePluginsThatHoldResourcesLastAddedFirst() {
    List<String> closed = new CopyOnWriteArrayList<>();
    Baton baton =
        Baton.builder()
            .plugin(new ClosingPlugin("first", closed))
            .plugin(new ClosingPlugin("second", closed))
            .build();

    baton.close();
    baton.close();

    assertThat(closed).containsExactly("second", "first");
  }

  @Test
  void closeLeavesTheApplicationsSchedulerRunning() throws Exception {
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try {
      Baton baton = Baton.builder().experimental().scheduler(scheduler).build();
      SlowAgent slow = slowAgent(baton, "slow");
      detach(slow);
      slow.release.countDown();
      assertThat(baton.drain(Duration.ofSeconds(10))).isTrue();

      baton.close();

      assertThat(scheduler.isShutdown()).as("the application owns its scheduler").isFalse();
      assertThat(
              scheduler.schedule(() -> "still runs", 0, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS))
          .isEqualTo("still runs");
    } finally {
      scheduler.shutdownNow();
    }
  }

  private record ClosingPlugin(String name, List<String> closed) implements Plugin, AutoCloseable {
    @Override
    public void init(Registry registry) {}

    @Override
    public void close() {
      closed.add(name);
    }
  }
}
