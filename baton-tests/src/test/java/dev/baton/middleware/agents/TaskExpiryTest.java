package dev.baton.middleware.agents;

import static dev.baton.testing.ProgrammableModel.lastUserText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.ModelInfo;
import dev.baton.core.ActionContext;
import dev.baton.testing.ForwardingSessionStore;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code continue_task} on a task whose worker died: its row expires once its last heartbeat is
 * older than the timeout. On fake time, so the row expires when the test moves the clock past the
 * timeout, not after a real wait for it.
 */
class TaskExpiryTest extends BackgroundTestSupport {
  @Override
  boolean onFakeTime() {
    return true;
  }

  /**
   * Moves the time just past the sub-agent's heartbeat timeout after the task started (its last
   * beat, since its beats are dropped): the row expires then, not before.
   */
  private void expire(Agent researcher, String taskId) {
    time.advance(HEARTBEAT_TIMEOUT);
    assertThat(row(researcher, taskId).status()).isEqualTo(SnapshotStatus.PENDING);
    time.advance(Duration.ofMillis(1));
    assertThat(row(researcher, taskId).status()).isEqualTo(SnapshotStatus.EXPIRED);
  }

  @Test
  void anExpiredTaskIsFencedAndContinuedFromItsParent() {
    HeartbeatSwitch store = new HeartbeatSwitch(subStore);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch stuck = new CountDownLatch(1);
    AtomicBoolean hung = new AtomicBoolean();
    // A worker that hangs in a call that ignores cancellation: as good as dead.
    baton.defineModel(
        "stuck-model",
        ModelInfo.full("stuck"),
        (ctx, request, chunks) -> {
          String text = lastUserText(request);
          if (text.equals("continue the work") && hung.compareAndSet(false, true)) {
            entered.countDown();
            awaitUninterruptibly(stuck);
          }
          return reply(text.equals("start") ? "started" : "redone");
        });
    Agent researcher = subAgent("researcher", "stuck-model", serverManaged(store).build());
    AtomicReference<SnapshotStatus> statusAfterRefusal = new AtomicReference<>();
    Agent orchestrator =
        baton.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("orch")
                .maxTurns(10)
                .use(Agents.builder().agents(researcher.ref()).async(true).build())
                .build(),
            AgentOptions.DEFAULTS);
    script(
        r -> calls(delegate("delegate_to_researcher", "d1", "start")),
        r ->
            calls(
                call(
                    "continue_task",
                    "bg",
                    task(taskId(r, "d1"), "continue the work").put("background", true))),
        r -> {
          String stalled = taskId(r, "bg");
          await().until(() -> entered.getCount() == 0);
          store.stopHeartbeats();
          expire(researcher, stalled);
          return calls(call("check_background_tasks", "c1", ids(stalled)));
        },
        r -> calls(call("continue_task", "bare", task(taskId(r, "bg")))),
        r -> {
          statusAfterRefusal.set(row(researcher, taskId(r, "bg")).status());
          return calls(call("continue_task", "redo", task(taskId(r, "bg"), "redo it")));
        },
        r -> calls(call("continue_task", "again", task(taskId(r, "bg")))),
        answer("done"));

    try {
      orchestrator.runText("go");
    } finally {
      stuck.countDown();
    }

    String stalled = last("bg").path("taskId").asString();
    JsonNode expired = report(last("c1"), stalled);
    assertThat(expired.path("status").asString()).isEqualTo("expired");
    assertThat(expired.path("error").asString())
        .startsWith("The background worker stopped reporting progress and is presumed dead.")
        .contains("continue_task");
    assertThat(last("bare").path("response").asString()).contains("instructions for what to redo");
    assertThat(statusAfterRefusal.get())
        .as("a refusal leaves the task as it was; only a continuation fences it")
        .isEqualTo(SnapshotStatus.EXPIRED);
    JsonNode redo = last("redo");
    assertThat(redo.path("response").asString()).isEqualTo("redone");
    assertThat(history(researcher, redo.path("taskId").asString()))
        .as("continued from the parent, the last turn committed before the launch")
        .containsExactly("start", "started", "redo it", "redone");
    SessionSnapshot fenced = row(researcher, stalled);
    assertThat(fenced.status())
        .as("fenced: the dead worker's row is aborted, so it cannot write on")
        .isEqualTo(SnapshotStatus.ABORTED);
    JsonNode again = last("again");
    assertThat(again.path("response").asString()).isEqualTo("redone");
    assertThat(history(researcher, again.path("taskId").asString()))
        .as("the fenced row kept the work it was handed, so a bare retry re-runs it")
        .containsExactly("start", "started", "continue the work", "redone");
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    while (true) {
      try {
        latch.await();
        return;
      } catch (InterruptedException ignored) {
        // As a call that ignores cancellation would.
      }
    }
  }

  @Test
  void anExpiredTaskThatNeverCommittedIsToldToDelegateAgain() {
    HeartbeatSwitch store = new HeartbeatSwitch(subStore);
    Agent researcher = subAgent("researcher", "researcher-model", serverManaged(store).build());
    CountDownLatch entered = new CountDownLatch(1);
    researcherModel
        .when(r -> true)
        .signalOnEntry(entered)
        .blockUntil(new CountDownLatch(1))
        .respondText("never");
    Agent orchestrator =
        orchestrator(
            AgentOptions.DEFAULTS, Agents.builder().agents(researcher.ref()).async(true).build());
    script(
        r -> calls(launch("delegate_to_researcher", "l1", "dig")),
        r -> {
          String stalled = taskId(r, "l1");
          await().until(() -> entered.getCount() == 0);
          store.stopHeartbeats();
          expire(researcher, stalled);
          return calls(call("continue_task", "c1", task(stalled, "redo")));
        },
        answer("ok"));

    orchestrator.runText("go");

    assertThat(last("c1").path("response").asString())
        .contains("lost its worker before it committed any work")
        .endsWith("Delegate the task again.");
  }

  /** A store whose heartbeats can be switched off, as if the worker's process had died. */
  private static final class HeartbeatSwitch extends ForwardingSessionStore {
    private final AtomicBoolean dropping = new AtomicBoolean();

    HeartbeatSwitch(InMemorySessionStore store) {
      super(store);
    }

    void stopHeartbeats() {
      dropping.set(true);
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      return super.saveSnapshot(
          context,
          snapshotId,
          existing -> {
            SessionSnapshot next = update.apply(existing);
            boolean heartbeatOnly =
                existing != null
                    && next != null
                    && next.withHeartbeatAt(existing.heartbeatAt()).equals(existing);
            return dropping.get() && heartbeatOnly ? null : next;
          });
    }
  }
}
