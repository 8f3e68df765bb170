package dev.baton.testing;

import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.assertFailsWith;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The part of the {@link SessionStoreContract} about input a store must refuse or must not misread:
 * IDs that are not well-formed UTF-16, and rows damaged where the store keeps them. Store tests
 * extend {@link SessionStoreContract}, which extends this class through {@link
 * SessionListingContract}, and so run these tests with the rest.
 *
 * <p><b>IDs.</b> A Java string may hold a lone surrogate, which UTF-8 cannot encode: the JDK's
 * encoders (a JDBC driver's, a file system's) write {@code ?} in its place, so <code>"s-&#92;ud800"
 * </code> would become the key of row {@code "s-?"}, another session's. Every call refuses such an
 * ID with {@code INVALID_ARGUMENT} before it reads or writes anything, whether it is a snapshot ID,
 * a session ID or the parent ID of a saved row.
 *
 * <p><b>Text.</b> The text of messages, state and errors may hold a lone surrogate: it is the
 * user's, and reads back exactly as saved, through {@link #openSecondInstance()} when the store has
 * one. A store that writes it through a UTF-8 encoder would read back {@code ?} instead; Jackson's
 * byte writers keep it as a <code>&#92;uD800</code> escape.
 *
 * <p><b>Damaged rows.</b> A disk fault, a bad migration or a hand edit can leave a row the store
 * cannot read as it was saved. Reading it by ID is {@code DATA_LOSS}; reading its session's latest
 * row is {@code DATA_LOSS} or the newest intact row, never the damaged row read as something else
 * (a history with a hole, or none); a save over it (an abort, say) is {@code DATA_LOSS} without
 * calling its update. These tests need the store's test to damage a row: override {@link #damage}.
 * They are skipped for a damage it does not make, which is every damage by default and for a store
 * that keeps nothing outside the JVM.
 */
public abstract sealed class HostileInputContract extends StatusSubscriptionContract
    permits SessionListingContract {
  /** For {@link SessionListingContract}, the only class that extends this one. */
  HostileInputContract() {}

  /** IDs that are not well-formed UTF-16: lone high and low surrogates, and a pair in reverse. */
  private static final List<String> NOT_WELL_FORMED =
      List.of("alias-\ud800", "alias-\udfff", "\ud800abc", "alias-\udc00\ud800");

  /** How {@link #damage} damages a stored row. */
  public enum RowDamage {
    /** A field of the row is stored as a value of the wrong type (its state as a JSON array). */
    UNDECODABLE,
    /** The last message of the row's history is stored as JSON {@code null}. */
    NULL_MESSAGE,
    /**
     * The row's record of how many messages it has is negative: for stores that keep a row's
     * messages apart from it, as the PostgreSQL store does.
     */
    NEGATIVE_HISTORY_LENGTH
  }

  /**
   * Damages the stored form of the row {@code snapshotId}, which the test saved with a state and
   * messages, as {@code damage} says, in the store's own storage (a file, a table), behind the
   * store's back. Returns false when the store has no such storage or the damage has no meaning for
   * it, which skips the test; the default does so for every damage.
   *
   * <p>The damaged row is then read through {@link #openSecondInstance()}, when the store has one,
   * as a restarted process would read it: the test's store may still answer from what it cached
   * when it saved the row.
   */
  protected boolean damage(String snapshotId, RowDamage damage) throws Exception {
    return false;
  }

  // ---- IDs ----

  @Test
  public void idsThatAreNotWellFormedAreRefused() {
    assertRefusedWithoutWriting();

    assertThat(store().getSnapshot(context(), "new")).isNull();
  }

  /**
   * The refusals again, now that the rows such IDs would alias once a surrogate became {@code ?}
   * exist: none of them is read or changed. A store that cannot hold {@code ?} in an ID overrides
   * this test.
   */
  @Test
  public void idsThatAreNotWellFormedAliasNoOtherRow() {
    SessionSnapshot pending = save(row("alias-?", "alias-?", at(1), PENDING));
    SessionSnapshot other = save(row("?abc", "?abc", at(1)));

    assertRefusedWithoutWriting();

    assertThat(store().getSnapshot(context(), "alias-?")).isEqualTo(pending);
    assertThat(store().getLatestSnapshot(context(), "?abc")).isEqualTo(other);
    assertThat(store().getSnapshot(context(), "new")).isNull();
  }

  /** Every call with each ID of {@link #NOT_WELL_FORMED} fails without calling its update. */
  private void assertRefusedWithoutWriting() {
    AtomicBoolean updated = new AtomicBoolean();
    for (String id : NOT_WELL_FORMED) {
      assertFailsWith(Status.INVALID_ARGUMENT, () -> store().getSnapshot(context(), id));
      assertFailsWith(Status.INVALID_ARGUMENT, () -> store().getLatestSnapshot(context(), id));
      assertFailsWith(
          Status.INVALID_ARGUMENT,
          () ->
              store()
                  .saveSnapshot(
                      context(),
                      id,
                      existing -> {
                        updated.set(true);
                        return row(id, "sess-1", at(2));
                      }));
      assertFailsWith(
          Status.INVALID_ARGUMENT, () -> SnapshotFixtures.abort(context(), store(), id, at(3)));
      assertFailsWith(Status.INVALID_ARGUMENT, () -> save(row("new", id, at(2))));
      assertFailsWith(
          Status.INVALID_ARGUMENT, () -> save(withParentId(row("new", "sess-1", at(2)), id)));
      if (store() instanceof SnapshotSubscriber subscriber) {
        assertFailsWith(
            Status.INVALID_ARGUMENT, () -> subscriber.onSnapshotStatusChange(context(), id));
      }
    }
    assertThat(updated).as("an update called for a refused ID").isFalse();
  }

  @Test
  public void surrogatePairsAreOrdinaryCharactersOfAnId() {
    String id = "pair-\ud83d\ude00";
    SessionSnapshot saved = save(withParentId(row(id, id, at(1)), id + "-parent"));

    assertThat(store().getSnapshot(context(), id)).isEqualTo(saved);
    assertThat(store().getLatestSnapshot(context(), id)).isEqualTo(saved);
  }

  @Test
  public void textWithALoneSurrogateIsStoredAsGiven() {
    // IDs must be well-formed; the text of messages, state and errors is the user's and is kept
    // exactly, where an encoder that wrote "?" for the surrogate would change it.
    String text = "half a pair: \ud800, and the other half: \udfff";
    SessionSnapshot row =
        row("text", "sess-1", at(1), SnapshotStatus.FAILED).toBuilder()
            .error(ErrorInfo.of(Status.INTERNAL, text))
            .state(
                SessionState.empty()
                    .withSessionId("sess-1")
                    .withMessages(List.of(Message.user(text), Message.model(text)))
                    .withCustom(Json.object().put("note", text)))
            .build();
    save(row);
    SessionStore second = openSecondInstance();
    SessionStore reader = second != null ? second : store();

    assertThat(reader.getSnapshot(context(), "text")).isEqualTo(row);
  }

  // ---- damaged rows ----

  @ParameterizedTest
  @EnumSource(RowDamage.class)
  public void aDamagedRowIsDataLossNeverAnotherRow(RowDamage damage) throws Exception {
    Message question = Message.user("question");
    Message answer = Message.model("answer");
    SessionSnapshot intact = save(withMessages("intact", at(1), question, answer));
    save(
        withParentId(
            withMessages(
                "damaged",
                at(2),
                question,
                answer,
                Message.user("and then?"),
                Message.model("this")),
            "intact"));
    assumeTrue(damage("damaged", damage), "the store's test does not make this damage");
    SessionStore second = openSecondInstance();
    SessionStore reader = second != null ? second : store();
    AtomicBoolean updated = new AtomicBoolean();

    assertFailsWith(Status.DATA_LOSS, () -> reader.getSnapshot(context(), "damaged"));
    try {
      assertThat(reader.getLatestSnapshot(context(), "sess-1")).isEqualTo(intact);
    } catch (BatonException e) {
      assertThat(e.status()).as("the session's latest row").isEqualTo(Status.DATA_LOSS);
    }
    assertFailsWith(
        Status.DATA_LOSS,
        () ->
            reader.saveSnapshot(
                context(),
                "damaged",
                existing -> {
                  updated.set(true);
                  return existing;
                }));

    assertThat(updated).as("an update called with a damaged row").isFalse();
    assertThat(reader.getSnapshot(context(), "intact")).isEqualTo(intact);
  }

  /** A completed row of session {@code sess-1} whose history is {@code messages}. */
  private static SessionSnapshot withMessages(
      String snapshotId, Instant createdAt, Message... messages) {
    return row(snapshotId, "sess-1", createdAt)
        .withState(SessionState.empty().withSessionId("sess-1").withMessages(List.of(messages)));
  }
}
