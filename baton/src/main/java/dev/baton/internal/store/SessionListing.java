package dev.baton.internal.store;

import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionSummary;
import dev.baton.ai.GenerationUsage;
import dev.baton.core.BatonException;
import dev.baton.internal.core.Utf16;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The parts of {@link dev.baton.agent.SessionStore#listSessions} that do not depend on where rows
 * live: the order, the page token, a session's summary from its rows, and a page cut from summaries
 * held in memory.
 *
 * <p>A page token is a position in the order, the {@code (updatedAt, sessionId)} of the last
 * session of the page before, in base64url so it reads as an opaque word. The next page starts
 * strictly after it, so sessions saved while a client pages shift nothing.
 *
 * <p>Internal: shared by Baton's stores, not an API (see the package comment).
 */
public final class SessionListing {
  /** Newest first by last update, then by session ID, greatest first. */
  public static final Comparator<SessionSummary> NEWEST_FIRST =
      Comparator.comparing(SessionSummary::updatedAt)
          .thenComparing(SessionSummary::sessionId)
          .reversed();

  /** A session's rows oldest first: by {@code createdAt}, then by snapshot ID. */
  public static final Comparator<SessionSnapshot> OLDEST_FIRST =
      Comparator.comparing(SessionSnapshot::createdAt).thenComparing(SessionSnapshot::snapshotId);

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private SessionListing() {}

  /** A position in the order: the page after it holds the sessions that sort after it. */
  public record Position(Instant updatedAt, String sessionId) {
    /** Whether {@code summary} sorts after this position, so belongs to the page after it. */
    public boolean precedes(SessionSummary summary) {
      return precedes(summary.updatedAt(), summary.sessionId());
    }

    /** Whether a session last updated at {@code at} sorts after this position. */
    public boolean precedes(Instant at, String id) {
      int byTime = at.compareTo(updatedAt);
      return byTime != 0 ? byTime < 0 : id.compareTo(sessionId) < 0;
    }

    /** The page token that starts the page after this position. */
    public String token() {
      String raw = updatedAt.getEpochSecond() + ":" + updatedAt.getNano() + ":" + sessionId;
      return ENCODER.encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /** The position of the last session of a page. */
    public static Position of(SessionSummary last) {
      return new Position(last.updatedAt(), last.sessionId());
    }
  }

  /**
   * The position a query's page token names, or null for the first page.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when the token is not one a store returned
   */
  public static @Nullable Position after(SessionQuery query) {
    String token = query.pageToken();
    if (token == null) {
      return null;
    }
    try {
      String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
      String[] parts = raw.split(":", 3);
      if (parts.length == 3 && !parts[2].isEmpty() && Utf16.isWellFormed(parts[2])) {
        Instant at = Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
        return new Position(at, parts[2]);
      }
    } catch (IllegalArgumentException | DateTimeException e) {
      // Not base64, not numbers, or out of range: the same answer as for a malformed one.
    }
    throw BatonException.invalidArgument("invalid page token: pass a token a previous page gave");
  }

  /**
   * The summary of a session from its latest row and the extent of its rows.
   *
   * @param latest the row {@code getLatestSnapshot} would return; its state supplies the spend
   */
  public static SessionSummary summary(
      SessionSnapshot latest, int turns, Instant createdAt, Instant updatedAt) {
    return SessionSummary.builder(
            String.valueOf(latest.sessionId()), latest.snapshotId(), createdAt)
        .status(latest.statusOrCompleted())
        .finishReason(latest.finishReason())
        .error(latest.error())
        .heartbeatAt(latest.heartbeatAt())
        .turns(turns)
        .updatedAt(updatedAt)
        .spend(latest.state() == null ? null : latest.state().usage())
        .build();
  }

  /**
   * A row as {@code listSnapshots} lists it: without its conversation, its state holding only its
   * usage (and no state when it records none).
   */
  public static SessionSnapshot header(SessionSnapshot row) {
    GenerationUsage usage = row.state() == null ? null : row.state().usage();
    return row.withState(usage == null ? null : SessionState.empty().withUsage(usage));
  }

  /** When a row last changed: its {@code updatedAt}, or its {@code createdAt} without one. */
  public static Instant updatedAt(SessionSnapshot row) {
    return row.updatedAt() == null ? row.createdAt() : row.updatedAt();
  }

  /** Whether a session passes the query's filters (status and ID prefix). */
  public static boolean matches(SessionQuery query, SessionSummary summary) {
    String prefix = query.sessionIdPrefix();
    return (query.status() == null || query.status() == summary.status())
        && (prefix == null || summary.sessionId().startsWith(prefix));
  }

  /**
   * The page a query asks for, cut from the summaries of every session a store holds, for stores
   * that summarise in memory.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for a malformed page token
   */
  public static SessionPage page(Collection<SessionSummary> sessions, SessionQuery query) {
    Position after = after(query);
    List<SessionSummary> candidates =
        sessions.stream()
            .filter(s -> matches(query, s) && (after == null || after.precedes(s)))
            .sorted(NEWEST_FIRST)
            .limit(query.limit() + 1L)
            .toList();
    return pageOf(candidates, query.limit());
  }

  /**
   * A page from up to {@code limit + 1} sessions in order: the first {@code limit}, with a next
   * token when there is one more.
   */
  public static SessionPage pageOf(List<SessionSummary> firstAndOneMore, int limit) {
    if (firstAndOneMore.size() <= limit) {
      return new SessionPage(firstAndOneMore, null);
    }
    List<SessionSummary> page = firstAndOneMore.subList(0, limit);
    return new SessionPage(page, Position.of(page.getLast()).token());
  }
}
