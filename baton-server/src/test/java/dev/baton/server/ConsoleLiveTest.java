package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.core.ActionContext;
import dev.baton.core.StreamCallback;
import dev.baton.server.ConsoleHttp.Events;
import dev.baton.testing.ForwardingSessionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The console's live event stream under load and failure: a store failure stops nothing, a store
 * that scopes by more than the principal is read as the stream's whole caller, and every pending
 * task is found however many there are.
 */
class ConsoleLiveTest {
  @AutoClose final ServedBaton served = new ServedBaton();
  final InMemorySessionStore store = InMemorySessionStore.create();

  private Agent agent(SessionStore sessions) {
    return served.agent(
        "helper",
        AgentOptions.builder()
            .sessionStore(sessions)
            .heartbeat(Duration.ofMillis(100), Duration.ofMillis(500))
            .build());
  }

  /** Starts a detached run whose model call waits for {@code release}: its row stays pending. */
  private AgentOutput detachBlocked(Agent agent, ActionContext context, CountDownLatch release) {
    served.model.step().blockUntil(release).respondText("done");
    return agent.run(
        context, AgentInput.text("go").withDetach(true), AgentInit.NEW, StreamCallback.discard());
  }

  @Test
  void aStoreFailureOnAChangeTheStoreReportedStopsNoLaterEvents() {
    AtomicBoolean failing = new AtomicBoolean();
    AtomicBoolean failedOnTheChange = new AtomicBoolean();
    Agent helper =
        agent(
            new ForwardingSessionStore(store) {
              @Override
              public @Nullable SessionSnapshot getSnapshot(
                  ActionContext context, String snapshotId) {
                if (failing.get()
                    && Thread.currentThread().getName().equals("baton-console-events")) {
                  // The read of a change the store reported, not the poller's periodic re-read.
                  if (Arrays.stream(new Throwable().getStackTrace())
                      .noneMatch(frame -> frame.getMethodName().equals("tick"))) {
                    failedOnTheChange.set(true);
                  }
                  throw new IllegalStateException("the connection broke");
                }
                return super.getSnapshot(context, snapshotId);
              }
            });
    served.start(b -> b.console("/console"));
    ActionContext root = ActionContext.root(served.baton.registry());
    try (Events events = new Events(served.url("/console/api/events"))) {
      CountDownLatch first = new CountDownLatch(1);
      AgentOutput a = detachBlocked(helper, root, first);
      await().atMost(Duration.ofSeconds(15)).until(() -> events.sent(a.snapshotId(), "pending"));
      failing.set(true);
      first.countDown();
      await().atMost(Duration.ofSeconds(15)).until(failedOnTheChange::get);
      failing.set(false);

      CountDownLatch second = new CountDownLatch(1);
      AgentOutput b = detachBlocked(helper, root, second);
      try {
        await().atMost(Duration.ofSeconds(15)).until(() -> events.sent(b.snapshotId(), "pending"));
      } finally {
        second.countDown();
      }
      await().atMost(Duration.ofSeconds(15)).until(() -> events.sent(b.snapshotId(), "completed"));
    }
  }

  @Test
  void aStoreThatScopesByATenantSendsTheTasksOfTheCallersTenant() {
    // A store that keeps each tenant's sessions apart, whatever the principal.
    Agent helper =
        agent(
            new ForwardingSessionStore(store) {
              private boolean acme(ActionContext context) {
                return "acme".equals(context.auth().get("tenant"));
              }

              @Override
              public @Nullable SessionSnapshot getSnapshot(
                  ActionContext context, String snapshotId) {
                return acme(context) ? super.getSnapshot(context, snapshotId) : null;
              }

              @Override
              public SessionPage listSessions(ActionContext context, SessionQuery query) {
                return acme(context)
                    ? super.listSessions(context, query)
                    : new SessionPage(List.of(), null);
              }
            });
    served.start(
        b ->
            b.console("/console")
                .contextProvider(
                    request ->
                        Map.of(
                            ActionContext.PRINCIPAL,
                            "alice",
                            "tenant",
                            request.headers().getOrDefault("x-tenant", "none"))));
    ActionContext acme =
        ActionContext.root(served.baton.registry())
            .withAuth(Map.of(ActionContext.PRINCIPAL, "alice", "tenant", "acme"));
    CountDownLatch release = new CountDownLatch(1);
    try (Events events = new Events(served.url("/console/api/events"), "X-Tenant", "acme")) {
      AgentOutput task = detachBlocked(helper, acme, release);
      await().atMost(Duration.ofSeconds(15)).until(() -> events.sent(task.snapshotId(), "pending"));
      release.countDown();
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> events.sent(task.snapshotId(), "completed"));
    }
  }

  @Test
  void everyPendingTaskIsWatchedBeyondOnePageOfTheStore() {
    agent(store);
    served.start(b -> b.console("/console"));
    ActionContext root = ActionContext.root(served.baton.registry());
    // More pending rows than one page holds, none with a live worker: each shows expired.
    List<String> orphans =
        IntStream.rangeClosed(0, SessionQuery.MAX_LIMIT).mapToObj(i -> "orphan-" + i).toList();
    Instant started = Instant.now();
    orphans.forEach(
        id ->
            store.saveSnapshot(
                root, id, existing -> SessionSnapshot.pending(id, "session-" + id, null, started)));
    assertThat(
            store
                .listSessions(
                    root,
                    SessionQuery.firstPage()
                        .withStatus(SnapshotStatus.PENDING)
                        .withLimit(SessionQuery.MAX_LIMIT))
                .nextPageToken())
        .isNotNull();
    try (Events events = new Events(served.url("/console/api/events"))) {
      await().atMost(Duration.ofSeconds(15)).until(() -> events.snapshotIds().containsAll(orphans));
    }
  }
}
