package dev.baton.testing;

import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.FAILED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.assertFailsWith;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SessionSummary;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Status;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The part of the {@link SessionStoreContract} about {@link SessionStore#listSessions}: the order,
 * the summary of a session, paging while writes land, the filters, principals, and bad tokens; and
 * about {@link SessionStore#listSnapshots}: a session's rows, branches included, without the
 * conversation. Store tests extend {@link SessionStoreContract}, the only class that extends this
 * one, and so run these tests with the rest.
 */
public abstract sealed class SessionListingContract extends HostileInputContract
    permits SessionStoreContract {
  /** For {@link SessionStoreContract}, the only class that extends this one. */
  SessionListingContract() {}

  private SessionPage list(SessionQuery query) {
    return store().listSessions(context(), query);
  }

  private static List<String> ids(SessionPage page) {
    return page.sessions().stream().map(SessionSummary::sessionId).toList();
  }

  /** Every session a query lists, page by page, in order. */
  private static List<String> allPages(SessionStore store, ActionContext context, SessionQuery q) {
    List<String> all = new ArrayList<>();
    SessionQuery query = q;
    while (true) {
      SessionPage page = store.listSessions(context, query);
      all.addAll(ids(page));
      if (page.nextPageToken() == null) {
        return all;
      }
      query = query.withPageToken(page.nextPageToken());
    }
  }

  @Test
  public void emptyStoreListsNothing() {
    SessionPage page = list(SessionQuery.firstPage());

    assertThat(page.sessions()).isEmpty();
    assertThat(page.nextPageToken()).isNull();
  }

  @Test
  public void sessionsListNewestFirstByLastUpdate() {
    save(row("a1", "sess-a", at(1)));
    save(row("b1", "sess-b", at(2)));
    save(row("c1", "sess-c", at(3)));
    // A rewrite of an old row (an abort, a worker's final write) is an update of its session.
    save(row("a1", "sess-a", at(1)).withUpdatedAt(at(10)));
    // Equal times go to the greater session ID.
    save(row("d1", "sess-d", at(3)));

    assertThat(ids(list(SessionQuery.firstPage())))
        .containsExactly("sess-a", "sess-d", "sess-c", "sess-b");
  }

  @Test
  public void heartbeatDoesNotMoveASession() {
    save(row("a1", "sess-a", at(1), PENDING).withHeartbeatAt(at(1)));
    save(row("b1", "sess-b", at(2)));

    SnapshotFixtures.heartbeat(context(), store(), "a1", at(30));

    assertThat(ids(list(SessionQuery.firstPage()))).containsExactly("sess-b", "sess-a");
  }

  @Test
  public void summaryDescribesTheLatestSnapshotAndTheSessionsExtent() {
    GenerationUsage spent = GenerationUsage.builder().inputTokens(120).outputTokens(30).build();
    save(row("t1", "sess-1", at(1)));
    save(withParentId(row("t2", "sess-1", at(2)), "t1").withUpdatedAt(at(4)));
    save(
        withParentId(row("t3", "sess-1", at(3), FAILED), "t2")
            .withFinishReason(AgentFinishReason.STOP)
            .withError(ErrorInfo.of(Status.INTERNAL, "the model went away"))
            .withHeartbeatAt(at(3))
            .withState(SessionState.empty().withSessionId("sess-1").withUsage(spent)));

    SessionSummary summary = list(SessionQuery.firstPage()).sessions().getFirst();

    assertThat(summary)
        .isEqualTo(
            SessionSummary.builder("sess-1", "t3", at(1))
                .status(FAILED)
                .finishReason(AgentFinishReason.STOP)
                .error(ErrorInfo.of(Status.INTERNAL, "the model went away"))
                .heartbeatAt(at(3))
                .turns(3)
                .updatedAt(at(4))
                .spend(spent)
                .build());
  }

  @Test
  public void summaryOfASessionWithoutUsageHasNoSpend() {
    save(row("p1", "sess-1", at(1), PENDING));

    SessionSummary summary = list(SessionQuery.firstPage()).sessions().getFirst();

    assertThat(summary.status()).isEqualTo(PENDING);
    assertThat(summary.spend()).isNull();
    assertThat(summary.turns()).isEqualTo(1);
  }

  @Test
  public void pagesEndWithoutATokenWhenNothingIsLeft() {
    save(row("a1", "sess-a", at(1)));
    save(row("b1", "sess-b", at(2)));

    SessionPage page = list(SessionQuery.firstPage().withLimit(2));

    assertThat(ids(page)).containsExactly("sess-b", "sess-a");
    assertThat(page.nextPageToken()).isNull();
  }

  @Test
  public void pagesNeitherRepeatNorSkipWhenWritesLandBetweenThem() {
    for (int i = 1; i <= 5; i++) {
      save(row("r" + i, "sess-" + i, at(i)));
    }
    SessionQuery query = SessionQuery.firstPage().withLimit(2);

    SessionPage first = list(query);
    // Between pages: a listed session gets a new turn, and a new session starts.
    save(withParentId(row("r5b", "sess-5", at(20)), "r5"));
    save(row("r6", "sess-6", at(21)));
    SessionPage second = list(query.withPageToken(first.nextPageToken()));
    SessionPage third = list(query.withPageToken(second.nextPageToken()));

    assertThat(ids(first)).containsExactly("sess-5", "sess-4");
    assertThat(ids(second)).containsExactly("sess-3", "sess-2");
    assertThat(ids(third)).containsExactly("sess-1");
    assertThat(third.nextPageToken()).isNull();
    assertThat(ids(list(SessionQuery.firstPage()))).startsWith("sess-6", "sess-5");
  }

  @Test
  public void statusFilterListsSessionsWhoseLatestSnapshotHasTheStatus() {
    save(row("a1", "sess-a", at(1), FAILED));
    save(withParentId(row("a2", "sess-a", at(2)), "a1"));
    save(row("b1", "sess-b", at(3), FAILED));
    save(row("c1", "sess-c", at(4), PENDING));
    save(row("d1", "sess-d", at(5), FAILED));
    save(row("e1", "sess-e", at(6), FAILED));

    SessionQuery failed = SessionQuery.firstPage().withStatus(FAILED).withLimit(2);

    assertThat(allPages(store(), context(), failed)).containsExactly("sess-e", "sess-d", "sess-b");
    assertThat(ids(list(SessionQuery.firstPage().withStatus(COMPLETED)))).containsExactly("sess-a");
  }

  @Test
  public void sessionIdPrefixFilterListsMatchingSessionsOnly() {
    save(row("a1", "team-a", at(1)));
    save(row("b1", "team-b", at(2)));
    save(row("c1", "solo", at(3)));
    save(row("d1", "team_c", at(4)));
    save(row("e1", "team%d", at(5)));

    assertThat(ids(list(SessionQuery.firstPage().withSessionIdPrefix("team-"))))
        .containsExactly("team-b", "team-a");
    assertThat(ids(list(SessionQuery.firstPage().withSessionIdPrefix("team%"))))
        .containsExactly("team%d");
  }

  @Test
  public void principalsListOnlyTheirOwnSessions() {
    SessionStore scoped = SnapshotFixtures.principalView(store());
    ActionContext alice = context().withAuth(Map.of(ActionContext.PRINCIPAL, "alice"));
    ActionContext bob = context().withAuth(Map.of(ActionContext.PRINCIPAL, "bob"));
    for (int i = 1; i <= 3; i++) {
      save(scoped, alice, row("a" + i, "alice-" + i, at(i)));
      save(scoped, bob, row("b" + i, "bob-" + i, at(10 + i)));
    }
    save(scoped, context(), row("n1", "anonymous", at(5)));
    SessionQuery query = SessionQuery.firstPage().withLimit(2);

    assertThat(allPages(scoped, alice, query)).containsExactly("alice-3", "alice-2", "alice-1");
    assertThat(allPages(scoped, bob, query)).containsExactly("bob-3", "bob-2", "bob-1");
    assertThat(allPages(scoped, context(), query)).containsExactly("anonymous");
    assertThat(scoped.listSessions(alice, query).sessions().getFirst().latestSnapshotId())
        .isEqualTo("a3");
  }

  @Test
  public void malformedPageTokenIsInvalidArgument() {
    save(row("a1", "sess-a", at(1)));
    String notBase64 = "not a token!";
    String notAPosition =
        Base64.getUrlEncoder().encodeToString("hello".getBytes(StandardCharsets.UTF_8));

    for (String token : List.of(notBase64, notAPosition)) {
      assertFailsWith(
          Status.INVALID_ARGUMENT, () -> list(SessionQuery.firstPage().withPageToken(token)));
    }
  }

  @Test
  public void snapshotsOfASessionListEveryRowOldestFirstWithoutTheConversation() {
    GenerationUsage spent = GenerationUsage.builder().inputTokens(7).outputTokens(3).build();
    SessionState conversation =
        SessionState.empty()
            .withSessionId("sess-1")
            .withMessages(List.of(Message.user("hello"), Message.model("hi")))
            .withUsage(spent);
    save(row("t1", "sess-1", at(1)).withState(conversation));
    save(withParentId(row("t2", "sess-1", at(2)), "t1").withState(conversation));
    // A branch: a second continuation of t1.
    save(
        withParentId(row("t3", "sess-1", at(3), FAILED), "t1")
            .withFinishReason(AgentFinishReason.STOP)
            .withError(ErrorInfo.of(Status.INTERNAL, "the model went away"))
            .withHeartbeatAt(at(3))
            .withUpdatedAt(at(4)));
    save(row("o1", "sess-other", at(2)));

    List<SessionSnapshot> rows = store().listSnapshots(context(), "sess-1");

    assertThat(rows).extracting(SessionSnapshot::snapshotId).containsExactly("t1", "t2", "t3");
    assertThat(rows).extracting(SessionSnapshot::parentId).containsExactly(null, "t1", "t1");
    assertThat(rows.get(1).state())
        .as("the conversation is left out, the usage kept")
        .isNotNull()
        .satisfies(state -> assertThat(state.messages()).isEmpty())
        .satisfies(state -> assertThat(state.usage()).isEqualTo(spent));
    SessionSnapshot failed = rows.get(2);
    assertThat(failed.status()).isEqualTo(FAILED);
    assertThat(failed.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(failed.error()).isEqualTo(ErrorInfo.of(Status.INTERNAL, "the model went away"));
    assertThat(failed.heartbeatAt()).isEqualTo(at(3));
    assertThat(failed.updatedAt()).isEqualTo(at(4));
    assertThat(failed.sessionId()).isEqualTo("sess-1");
  }

  @Test
  public void snapshotsOfAnUnknownSessionAreNone() {
    save(row("a1", "sess-a", at(1)));

    assertThat(store().listSnapshots(context(), "sess-b")).isEmpty();
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store().listSnapshots(context(), ""));
  }

  @Test
  public void principalsListOnlyTheirOwnSnapshots() {
    SessionStore scoped = SnapshotFixtures.principalView(store());
    ActionContext alice = context().withAuth(Map.of(ActionContext.PRINCIPAL, "alice"));
    ActionContext bob = context().withAuth(Map.of(ActionContext.PRINCIPAL, "bob"));
    save(scoped, alice, row("a1", "shared-name", at(1)));
    save(scoped, alice, withParentId(row("a2", "shared-name", at(2)), "a1"));
    save(scoped, bob, row("b1", "shared-name", at(3)));

    assertThat(scoped.listSnapshots(alice, "shared-name"))
        .extracting(
            SessionSnapshot::snapshotId, SessionSnapshot::sessionId, SessionSnapshot::parentId)
        .containsExactly(tuple("a1", "shared-name", null), tuple("a2", "shared-name", "a1"));
    assertThat(scoped.listSnapshots(bob, "shared-name"))
        .extracting(SessionSnapshot::snapshotId)
        .containsExactly("b1");
    assertThat(scoped.listSnapshots(context(), "shared-name")).isEmpty();
  }

  private SessionSnapshot save(SessionStore target, ActionContext context, SessionSnapshot row) {
    return SnapshotFixtures.present(
        target.saveSnapshot(context, row.snapshotId(), existing -> row), "saved " + row);
  }
}
