package dev.baton.testing;

import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.internal.agent.Snapshots;
import java.time.Instant;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;

/**
 * Rows, times and assertions for tests of session stores and of code that uses them, such as the
 * tests of {@link SessionStoreContract} and of the stores that extend it. Meant for static import.
 *
 * <p>Stateless and thread-safe.
 */
public final class SnapshotFixtures {
  /** A fixed origin for test timestamps; {@link #at(long)} counts seconds from it. */
  public static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private SnapshotFixtures() {}

  /** The instant {@code seconds} after {@link #T0}. */
  public static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  /**
   * A row of a session, created and last updated at {@code createdAt}, with no parent. A pending
   * row has no state, as the runtime writes it; any other row has an empty state of the session.
   */
  public static SessionSnapshot row(
      String snapshotId, String sessionId, Instant createdAt, SnapshotStatus status) {
    return SessionSnapshot.builder(snapshotId, createdAt)
        .sessionId(sessionId)
        .status(status)
        .state(status == PENDING ? null : SessionState.empty().withSessionId(sessionId))
        .build();
  }

  /** A completed row of a session, created at {@code createdAt}. */
  public static SessionSnapshot row(String snapshotId, String sessionId, Instant createdAt) {
    return row(snapshotId, sessionId, createdAt, COMPLETED);
  }

  /** A copy of {@code row} whose lineage goes back to {@code parentId}. */
  public static SessionSnapshot withParentId(SessionSnapshot row, String parentId) {
    return row.toBuilder().parentId(parentId).build();
  }

  /**
   * Aborts a row the way the runtime does, as an ordinary save: a pending row becomes {@code
   * aborted} with {@code updatedAt = at}; any other row is left alone.
   *
   * @return the status after the attempt, or null when the row does not exist
   */
  public static @Nullable SnapshotStatus abort(
      ActionContext context, SessionStore store, String snapshotId, Instant at) {
    return Snapshots.abort(context, store, snapshotId, at);
  }

  /**
   * Stamps a heartbeat the way a detached run's worker does, as an ordinary save.
   *
   * @return whether the row was unsettled and stamped
   */
  public static boolean heartbeat(
      ActionContext context, SessionStore store, String snapshotId, Instant at) {
    return Snapshots.heartbeat(context, store, snapshotId, at);
  }

  /**
   * The store as an agent's runtime sees it: a call whose context binds a principal ({@link
   * ActionContext#principal()}) reads, writes and lists only that principal's sessions, and a call
   * without one only the sessions saved without one.
   */
  public static SessionStore principalView(SessionStore store) {
    return Snapshots.principalView(store);
  }

  /** {@code value}, which the test needs; an assertion error names {@code what} when it is null. */
  public static <T> T present(@Nullable T value, String what) {
    if (value == null) {
      throw new AssertionError("expected " + what + ", got null");
    }
    return value;
  }

  /** Asserts that {@code call} fails with a {@link BatonException} of {@code status}. */
  public static void assertFailsWith(Status status, ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(status));
  }
}
