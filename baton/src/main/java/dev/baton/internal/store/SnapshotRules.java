package dev.baton.internal.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.core.BatonException;
import dev.baton.internal.core.RandomIds;
import dev.baton.internal.core.Utf16;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The parts of the {@link dev.baton.agent.SessionStore} contract that do not depend on where rows
 * live, so every Baton store applies them identically: which IDs a store accepts, which ID a save
 * writes, the identity and status rules of a saved row, the order that picks a session's latest
 * row, and which rows a retention limit deletes.
 *
 * <p>Every ID is well-formed UTF-16 (see {@link Utf16}): an ID with a lone surrogate is refused
 * with {@code INVALID_ARGUMENT} by every call that takes one, since a store that encodes it in
 * UTF-8 would keep it as another ID, with {@code ?} in place of the surrogate.
 *
 * <p>Internal: shared by Baton's stores, not an API (see the package comment).
 */
public final class SnapshotRules {
  /** The longest part of an ID that error messages quote. */
  private static final int MAX_QUOTED = 80;

  private SnapshotRules() {}

  /**
   * The ID a save writes: the caller's, or a fresh UUID when it is null or empty.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when the caller's is not well-formed UTF-16
   */
  public static String idOrMinted(@Nullable String snapshotId) {
    if (snapshotId == null || snapshotId.isEmpty()) {
      return RandomIds.uuid();
    }
    requireWellFormed("snapshot ID", snapshotId);
    return snapshotId;
  }

  /**
   * Checks an ID a store is given, or a tenant or prefix it keys rows by.
   *
   * @param what what the value is, for the message: "snapshot ID", "tenant"
   * @throws BatonException {@code INVALID_ARGUMENT} when it is not well-formed UTF-16
   */
  public static void requireWellFormed(String what, String id) {
    if (!Utf16.isWellFormed(id)) {
      throw BatonException.invalidArgument(
          "invalid %s %s: it is not well-formed Unicode (it has a lone surrogate)",
          what, quote(id));
    }
  }

  /**
   * An ID in double quotes for an error message: control characters and surrogates escaped as
   * <code>&#92;uXXXX</code>, and shortened past 80 characters (with the full length), so a message
   * stays one short line of text that encodes as it reads.
   */
  public static String quote(String id) {
    StringBuilder quoted = new StringBuilder("\"");
    String shown = id.length() <= MAX_QUOTED ? id : id.substring(0, MAX_QUOTED);
    shown
        .chars()
        .forEach(
            c -> {
              if (c < 0x20 || Character.isSurrogate((char) c)) {
                quoted.append(String.format("\\u%04x", c));
              } else {
                quoted.append((char) c);
              }
            });
    quoted.append('"');
    if (shown.length() < id.length()) {
      quoted.append("… (").append(id.length()).append(" characters)");
    }
    return quoted.toString();
  }

  /**
   * The row to persist for an update's result {@code next}: its ID is {@code snapshotId} whatever
   * {@code next} says; its session ID is the existing row's (a row never changes session), or else
   * {@code next}'s; an absent status becomes {@code completed}. Everything else, timestamps
   * included, is kept as given.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} "session ID is required" when the row would
   *     have no session ID, and {@code INVALID_ARGUMENT} when its session or parent ID is not
   *     well-formed UTF-16
   */
  public static SessionSnapshot toPersist(
      String snapshotId, @Nullable SessionSnapshot existing, SessionSnapshot next) {
    @Nullable String sessionId =
        existing != null && !isEmpty(existing.sessionId())
            ? existing.sessionId()
            : next.sessionId();
    if (sessionId == null || sessionId.isEmpty()) {
      throw sessionIdRequired();
    }
    requireWellFormed("session ID", sessionId);
    String parentId = next.parentId();
    if (parentId != null) {
      requireWellFormed("parent ID", parentId);
    }
    return next.withSnapshotId(snapshotId)
        .withSessionId(sessionId)
        .withStatus(next.statusOrCompleted());
  }

  /**
   * Checks the argument of {@code getLatestSnapshot}.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} "session ID is required" when it is empty, and
   *     {@code INVALID_ARGUMENT} when it is not well-formed UTF-16
   */
  public static void requireSessionId(String sessionId) {
    if (sessionId.isEmpty()) {
      throw sessionIdRequired();
    }
    requireWellFormed("session ID", sessionId);
  }

  /**
   * Whether a row created at {@code createdAt} with ID {@code id} is more recent than another: a
   * later {@code createdAt} wins, and equal times go to the greater ID, so the latest row of a
   * session is the same whichever order the rows are examined in.
   */
  public static boolean isMoreRecent(
      Instant createdAt, String id, Instant otherCreatedAt, String otherId) {
    int byTime = createdAt.compareTo(otherCreatedAt);
    return byTime != 0 ? byTime > 0 : id.compareTo(otherId) > 0;
  }

  /** {@link #isMoreRecent(Instant, String, Instant, String)} for two rows. */
  public static boolean isMoreRecent(SessionSnapshot row, SessionSnapshot other) {
    return isMoreRecent(row.createdAt(), row.snapshotId(), other.createdAt(), other.snapshotId());
  }

  /**
   * The rows of the saved row's lineage past the newest {@code maxChainLength}, oldest last: the
   * walk follows {@code parentId} links back from {@code saved} while the parent exists, and stops
   * at a cycle.
   *
   * @param headerOf a row's header, or null when there is no such row
   */
  public static List<String> pastRetention(
      SessionSnapshot saved, int maxChainLength, Function<String, @Nullable RowHeader> headerOf) {
    List<String> chain = new ArrayList<>();
    chain.add(saved.snapshotId());
    Set<String> seen = new HashSet<>(chain);
    String parentId = saved.parentId();
    while (parentId != null && seen.add(parentId)) {
      RowHeader parent = headerOf.apply(parentId);
      if (parent == null) {
        break;
      }
      chain.add(parentId);
      parentId = parent.parentId();
    }
    return chain.size() > maxChainLength
        ? List.copyOf(chain.subList(maxChainLength, chain.size()))
        : List.of();
  }

  private static boolean isEmpty(@Nullable String value) {
    return value == null || value.isEmpty();
  }

  private static BatonException sessionIdRequired() {
    return BatonException.invalidArgument("session ID is required");
  }
}
