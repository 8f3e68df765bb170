package dev.baton.internal.agent;

import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.assertFailsWith;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.StatusSubscription;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.core.ActionContext;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ForwardingSessionStore;
import dev.baton.testing.ProgrammableModel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The agent checks every ID itself, before its store sees it: a user's store that checks none still
 * lets no ID that is not well-formed UTF-16 reach another ID's row.
 */
class PrincipalScopedStoreTest {
  private static final String ALIAS = "alias-?";
  private static final String NOT_WELL_FORMED = "alias-\ud800";

  private final Baton baton = Baton.builder().experimental().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  private final InMemorySessionStore rows = InMemorySessionStore.create();
  private final SessionStore lax = new Utf8KeyedStore(rows);
  private final ActionContext alice =
      baton.context().withAuth(Map.of(ActionContext.PRINCIPAL, "alice"));

  @Test
  void anIdThatIsNotWellFormedReachesNoRowOfAStoreThatDoesNotCheckIt() {
    Agent chat =
        baton.defineAgent(
            "chat",
            InlinePrompt.builder().model("pm").build(),
            AgentOptions.builder().sessionStore(lax).build());
    // The pending rows the ID becomes in UTF-8: one without a principal, one of alice's.
    String alices = PrincipalScopedStore.prefix("alice") + ALIAS;
    SessionSnapshot unscoped = save(row(ALIAS, ALIAS, at(1), PENDING));
    SessionSnapshot scoped = save(row(alices, alices, at(1), PENDING));

    for (ActionContext context : List.of(baton.context(), alice)) {
      for (Runnable call :
          List.<Runnable>of(
              () -> chat.snapshots(context).get(NOT_WELL_FORMED),
              () -> chat.snapshots(context).waitFor(NOT_WELL_FORMED),
              () -> chat.snapshots(context).abort(NOT_WELL_FORMED),
              () ->
                  chat.run(
                      context,
                      AgentInput.text("hi"),
                      AgentInit.ofSnapshot(NOT_WELL_FORMED),
                      StreamCallback.discard()))) {
        assertFailsWith(Status.INVALID_ARGUMENT, call::run);
      }
    }

    assertThat(model.calls()).isZero();
    assertThat(rows.getSnapshot(baton.context(), ALIAS)).isEqualTo(unscoped);
    assertThat(rows.getSnapshot(baton.context(), alices)).isEqualTo(scoped);
  }

  @Test
  void aSavedRowsSessionAndParentIdsAreCheckedBeforeTheStoreSeesThem() {
    SessionStore scoped = PrincipalScopedStore.wrap(lax);
    List<UnaryOperator<@Nullable SessionSnapshot>> updates =
        List.of(
            existing -> row("new", NOT_WELL_FORMED, at(2)),
            existing -> withParentId(row("new", "sess-1", at(2)), NOT_WELL_FORMED));

    for (ActionContext context : List.of(baton.context(), alice)) {
      for (UnaryOperator<@Nullable SessionSnapshot> update : updates) {
        assertFailsWith(Status.INVALID_ARGUMENT, () -> scoped.saveSnapshot(context, "new", update));
        assertFailsWith(Status.INVALID_ARGUMENT, () -> scoped.saveSnapshot(context, null, update));
      }
    }

    assertThat(rows.getLatestSnapshot(baton.context(), ALIAS)).isNull();
    assertThat(rows.getSnapshot(baton.context(), "new")).isNull();
  }

  private SessionSnapshot save(SessionSnapshot row) {
    return rows.saveSnapshot(baton.context(), row.snapshotId(), existing -> row);
  }

  /**
   * A store that checks no ID and keys rows by their IDs' UTF-8 form, as a database does, so a lone
   * surrogate becomes {@code ?}.
   */
  private static final class Utf8KeyedStore extends ForwardingSessionStore {
    Utf8KeyedStore(InMemorySessionStore rows) {
      super(rows);
    }

    @Override
    public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
      return super.getSnapshot(context, utf8(snapshotId));
    }

    @Override
    public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
      return super.getLatestSnapshot(context, utf8(sessionId));
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      return super.saveSnapshot(
          context,
          snapshotId == null ? null : utf8(snapshotId),
          existing -> {
            SessionSnapshot next = update.apply(existing);
            return next == null || next.sessionId() == null
                ? next
                : next.withSessionId(utf8(next.sessionId())).toBuilder()
                    .parentId(next.parentId() == null ? null : utf8(next.parentId()))
                    .build();
          });
    }

    @Override
    public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
      return super.onSnapshotStatusChange(context, utf8(snapshotId));
    }

    private static String utf8(String id) {
      return new String(id.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }
  }
}
