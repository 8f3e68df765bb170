package dev.baton.agent;

import dev.baton.core.BatonException;
import org.jspecify.annotations.Nullable;

/**
 * Which sessions {@link SessionStore#listSessions} lists, and which page of them. Sessions come
 * newest first by {@link SessionSummary#updatedAt()}, then by session ID, greatest first.
 *
 * <pre>{@code
 * SessionQuery query = SessionQuery.firstPage().withStatus(PENDING);
 * SessionPage page = store.listSessions(ctx, query);
 * while (page.nextPageToken() != null) {
 *   page = store.listSessions(ctx, query.withPageToken(page.nextPageToken()));
 * }
 * }</pre>
 *
 * <p>Paging follows the usual rules of list APIs: a {@code limit} of 0 asks for the default page
 * size ({@value #DEFAULT_LIMIT}), one above {@value #MAX_LIMIT} is taken as {@value #MAX_LIMIT},
 * and a negative one is {@code INVALID_ARGUMENT}. A page token is opaque: pass the one a page
 * returned, with the same filters; a token that is not one a store returned is {@code
 * INVALID_ARGUMENT}. Tokens mark a position in the order, not an offset, so saves between two pages
 * shift nothing: every session that did not change while a client paged is listed once, and one
 * saved meanwhile moves to the front, ahead of the pages still to read, so it is never listed twice
 * (a new first page shows it).
 *
 * @param status only sessions whose latest snapshot has this status as stored, or null for all (a
 *     store keeps a dead worker's row {@code pending}; an agent's view reads it {@code expired})
 * @param limit how many sessions a page holds at most, between 1 and {@value #MAX_LIMIT}
 * @param pageToken where the page starts: a previous page's {@link SessionPage#nextPageToken()}, or
 *     null for the first page
 * @param sessionIdPrefix only sessions whose ID starts with this, or null for all; the runtime uses
 *     it to list one principal's sessions (see {@link SessionStore#listSessions})
 */
public record SessionQuery(
    @Nullable SnapshotStatus status,
    int limit,
    @Nullable String pageToken,
    @Nullable String sessionIdPrefix) {

  /** The page size when the query asks for none. */
  public static final int DEFAULT_LIMIT = 50;

  /** The largest page a store returns. */
  public static final int MAX_LIMIT = 500;

  /**
   * Normalises the query: a limit of 0 becomes {@value #DEFAULT_LIMIT}, one above {@value
   * #MAX_LIMIT} becomes {@value #MAX_LIMIT}, and an empty token or prefix becomes null.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for a negative limit
   */
  public SessionQuery {
    if (limit < 0) {
      throw BatonException.invalidArgument("limit must not be negative, got %d", limit);
    }
    limit = limit == 0 ? DEFAULT_LIMIT : Math.min(limit, MAX_LIMIT);
    pageToken = pageToken == null || pageToken.isEmpty() ? null : pageToken;
    sessionIdPrefix = sessionIdPrefix == null || sessionIdPrefix.isEmpty() ? null : sessionIdPrefix;
  }

  /** The first page of every session, {@value #DEFAULT_LIMIT} at a time. */
  public static SessionQuery firstPage() {
    return new SessionQuery(null, DEFAULT_LIMIT, null, null);
  }

  public SessionQuery withStatus(@Nullable SnapshotStatus status) {
    return new SessionQuery(status, limit, pageToken, sessionIdPrefix);
  }

  public SessionQuery withLimit(int limit) {
    return new SessionQuery(status, limit, pageToken, sessionIdPrefix);
  }

  public SessionQuery withPageToken(@Nullable String pageToken) {
    return new SessionQuery(status, limit, pageToken, sessionIdPrefix);
  }

  public SessionQuery withSessionIdPrefix(@Nullable String sessionIdPrefix) {
    return new SessionQuery(status, limit, pageToken, sessionIdPrefix);
  }
}
