package dev.baton.internal.agent;

import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SessionSummary;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.internal.core.Utf16;
import dev.baton.internal.store.SnapshotRules;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * An agent's session store as one principal sees it: the sessions of a call whose context binds a
 * principal ({@link ActionContext#principal()}) live in that principal's own key space, so a
 * session belongs to the principal that started it, in every store.
 *
 * <p>A principal's IDs are stored under the prefix {@code p<32 hex digits>~}, the start of the
 * SHA-256 of the principal's name: a snapshot {@code s1} of principal {@code alice} is the store
 * row {@code p<hash of alice>~s1}, and its session and parent IDs are prefixed the same way. Rows
 * read back lose the prefix, so callers never see it. Another principal's rows are therefore simply
 * not there: a read by ID finds nothing, a session ID names a session of the caller's own (a fresh
 * one, usually), and an abort or a wait answers as for an unknown ID.
 *
 * <p>A call without a principal reads and writes IDs as they are, as Genkit does, except that an ID
 * in the prefixed form, in either case, is reserved: every call that names one, read or write, is
 * refused with {@code INVALID_ARGUMENT}, whether a row of that ID exists or not, so no call can
 * reach a principal's rows by spelling out their stored IDs, nor learn whether they exist.
 *
 * <p>A principal is well-formed UTF-16, as IDs are: its hash is of its UTF-8 form, in which a lone
 * surrogate would become {@code ?}, so <code>"carol-&#92;ud800"</code> and {@code "carol-?"} would
 * share their sessions. A call whose principal has a lone surrogate fails with {@code INTERNAL}, a
 * non-public error: the principal comes from the server's context provider, not from the caller.
 *
 * <p>Every ID a call names, and the session and parent IDs of a row it saves, are checked to be
 * well-formed UTF-16 before the wrapped store sees them, with or without a principal: Baton's
 * stores check them too, but a user's store may not, and would alias <code>"s-&#92;ud800"</code>
 * with {@code "s-?"}.
 *
 * <p>The wrapped store's errors name IDs as the caller wrote them: the prefix is taken out of their
 * messages.
 *
 * <p>Thread-safe when the wrapped store is.
 */
class PrincipalScopedStore implements SessionStore {
  private static final int HASH_HEX_DIGITS = 32;
  private static final int PREFIX_LENGTH = HASH_HEX_DIGITS + 2;

  private final SessionStore store;

  private PrincipalScopedStore(SessionStore store) {
    this.store = store;
  }

  /** The store as principals see it; it notifies status changes when {@code store} does. */
  static SessionStore wrap(SessionStore store) {
    return store instanceof SnapshotSubscriber
        ? new Subscribing(store)
        : new PrincipalScopedStore(store);
  }

  @Override
  public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    return seen(
        context,
        withStoredId(context, "snapshot ID", snapshotId, id -> store.getSnapshot(context, id)));
  }

  @Override
  public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    return seen(
        context,
        withStoredId(context, "session ID", sessionId, id -> store.getLatestSnapshot(context, id)));
  }

  @Override
  public @Nullable SessionSnapshot saveSnapshot(
      ActionContext context,
      @Nullable String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update) {
    Optional<String> principal = context.principal();
    if (principal.isEmpty()) {
      if (snapshotId != null && !snapshotId.isEmpty()) {
        SnapshotRules.requireWellFormed("snapshot ID", snapshotId);
      }
      requireUnprefixed(snapshotId);
      return store.saveSnapshot(
          context,
          snapshotId,
          existing -> {
            SessionSnapshot next = update.apply(existing);
            if (next != null) {
              requireWellFormedIds(next);
              requireUnprefixed(next.sessionId());
              requireUnprefixed(next.parentId());
            }
            return next;
          });
    }
    String prefix = prefix(principal.get());
    String id = SnapshotRules.idOrMinted(snapshotId);
    SessionSnapshot saved =
        asWritten(
            prefix,
            id,
            () ->
                store.saveSnapshot(
                    context,
                    prefix + id,
                    existing -> {
                      SessionSnapshot next = update.apply(unprefixed(prefix, existing));
                      if (next == null) {
                        return null;
                      }
                      requireWellFormedIds(next);
                      return next.withSessionId(prefixed(prefix, next.sessionId())).toBuilder()
                          .parentId(prefixed(prefix, next.parentId()))
                          .build();
                    }));
    return unprefixed(prefix, saved);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A principal's page is the wrapped store's page of the sessions under the principal's prefix,
   * with the prefix taken out of their IDs. A call without a principal gets the sessions stored
   * without one: the wrapped store's pages with the principals' sessions left out, read on until
   * the page is full or the store has no more.
   */
  @Override
  public SessionPage listSessions(ActionContext context, SessionQuery query) {
    String wanted = query.sessionIdPrefix();
    if (wanted != null) {
      SnapshotRules.requireWellFormed("session ID prefix", wanted);
    }
    Optional<String> principal = context.principal();
    if (principal.isPresent()) {
      String prefix = prefix(principal.get());
      SessionPage page =
          store.listSessions(
              context, query.withSessionIdPrefix(prefix + (wanted == null ? "" : wanted)));
      // Filtered again: a user's store that ignored the prefix must not show another's sessions.
      return new SessionPage(
          page.sessions().stream()
              .filter(s -> s.sessionId().startsWith(prefix))
              .map(s -> unprefixed(prefix, s))
              .toList(),
          page.nextPageToken());
    }
    List<SessionSummary> kept = new ArrayList<>();
    SessionQuery next = query;
    while (true) {
      SessionPage page = store.listSessions(context, next);
      page.sessions().stream().filter(s -> !isPrefixed(s.sessionId())).forEach(kept::add);
      if (kept.size() >= query.limit() || page.nextPageToken() == null) {
        return new SessionPage(kept, page.nextPageToken());
      }
      next = next.withPageToken(page.nextPageToken()).withLimit(query.limit() - kept.size());
    }
  }

  @Override
  public List<SessionSnapshot> listSnapshots(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    List<SessionSnapshot> rows =
        withStoredId(context, "session ID", sessionId, id -> store.listSnapshots(context, id));
    // Filtered again, as the listing is: rows of another principal's never show.
    List<SessionSnapshot> seen = new ArrayList<>();
    for (SessionSnapshot row : rows) {
      SessionSnapshot mine = seen(context, row);
      if (mine != null && sessionId.equals(mine.sessionId())) {
        seen.add(mine);
      }
    }
    return seen;
  }

  private static SessionSummary unprefixed(String prefix, SessionSummary summary) {
    return summary.toBuilder()
        .sessionId(summary.sessionId().substring(prefix.length()))
        .latestSnapshotId(Objects.requireNonNull(strip(prefix, summary.latestSnapshotId())))
        .build();
  }

  /**
   * Checks the principal of a call before it uses the store, so that a call that would fail on its
   * first store access fails before it does anything else (runs a turn, say).
   *
   * @throws BatonException {@code INTERNAL} when the principal is not well-formed UTF-16
   */
  static void requireWellFormedPrincipal(ActionContext context) {
    context.principal().ifPresent(PrincipalScopedStore::requireWellFormed);
  }

  /**
   * Calls the store with the stored form of {@code id} for the call's principal.
   *
   * @param what what the ID is, for the message: "snapshot ID", "session ID"
   * @throws BatonException {@code INVALID_ARGUMENT} for an ID that is not well-formed UTF-16, and
   *     for an ID in the prefixed form without a principal
   */
  final <T extends @Nullable Object> T withStoredId(
      ActionContext context, String what, String id, Function<String, T> call) {
    // Checked here as well as in Baton's stores: a store of the user's may not check it.
    SnapshotRules.requireWellFormed(what, id);
    Optional<String> principal = context.principal();
    if (principal.isEmpty()) {
      requireUnprefixed(id);
      return call.apply(id);
    }
    String prefix = prefix(principal.get());
    return asWritten(prefix, id, () -> call.apply(prefix + id));
  }

  /**
   * Runs a call of the wrapped store that names {@code prefix + id}; an error whose message names
   * the stored form is thrown again with the caller's form in its place: the ID as the store quoted
   * it, and then any other quoted ID that starts with the prefix (a row's session or parent ID). A
   * prefix inside an ID, where the caller wrote it, stays.
   */
  private static <T extends @Nullable Object> T asWritten(
      String prefix, String id, Supplier<T> call) {
    try {
      return call.get();
    } catch (BatonException e) {
      String message = e.getMessage();
      if (message == null || !message.contains(prefix)) {
        throw e;
      }
      String written =
          message
              .replace(SnapshotRules.quote(prefix + id), SnapshotRules.quote(id))
              .replace("\"" + prefix, "\"");
      throw new BatonException(e.status(), written, e.details(), e.isPublic(), e);
    }
  }

  private static @Nullable SessionSnapshot seen(
      ActionContext context, @Nullable SessionSnapshot row) {
    Optional<String> principal = context.principal();
    return principal.isEmpty() ? row : unprefixed(prefix(principal.get()), row);
  }

  /** The row without the principal's prefix; null when it is not the principal's (or null). */
  private static @Nullable SessionSnapshot unprefixed(
      String prefix, @Nullable SessionSnapshot row) {
    if (row == null || !row.snapshotId().startsWith(prefix)) {
      return null;
    }
    return row
        .withSnapshotId(row.snapshotId().substring(prefix.length()))
        .withSessionId(strip(prefix, row.sessionId()))
        .toBuilder()
        .parentId(strip(prefix, row.parentId()))
        .build();
  }

  private static @Nullable String prefixed(String prefix, @Nullable String id) {
    return id == null || id.isEmpty() ? id : prefix + id;
  }

  private static @Nullable String strip(String prefix, @Nullable String id) {
    return id != null && id.startsWith(prefix) ? id.substring(prefix.length()) : id;
  }

  /**
   * Checks the session and parent IDs of a row an update returns, before the store sees them, as
   * {@link #withStoredId} checks the caller's.
   */
  private static void requireWellFormedIds(SessionSnapshot next) {
    if (next.sessionId() != null) {
      SnapshotRules.requireWellFormed("session ID", next.sessionId());
    }
    if (next.parentId() != null) {
      SnapshotRules.requireWellFormed("parent ID", next.parentId());
    }
  }

  private static void requireUnprefixed(@Nullable String id) {
    if (id != null && isPrefixed(id)) {
      throw BatonException.invalidArgument(
          "IDs of the form p<32 hex digits>~... are reserved for sessions bound to a principal");
    }
  }

  /**
   * Whether an ID has the stored form of a principal's ID, in either case: a store on a
   * case-insensitive file system would find a principal's row under {@code P<HASH>~...} too.
   */
  static boolean isPrefixed(String id) {
    if (id.length() < PREFIX_LENGTH
        || Character.toLowerCase(id.charAt(0)) != 'p'
        || id.charAt(PREFIX_LENGTH - 1) != '~') {
      return false;
    }
    for (int i = 1; i < PREFIX_LENGTH - 1; i++) {
      if (Character.digit(id.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  static String prefix(String principal) {
    requireWellFormed(principal);
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(principal.getBytes(StandardCharsets.UTF_8));
      return "p" + HexFormat.of().formatHex(hash, 0, HASH_HEX_DIGITS / 2) + "~";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static void requireWellFormed(String principal) {
    if (!Utf16.isWellFormed(principal)) {
      throw BatonException.internal(
          "the server is misconfigured: the principal of the call's auth context is not"
              + " well-formed UTF-16 (it has a lone surrogate), so it cannot key its sessions",
          null);
    }
  }

  /** The scoped view of a store that also notifies status changes. */
  private static final class Subscribing extends PrincipalScopedStore
      implements SnapshotSubscriber {
    private final SnapshotSubscriber subscriber;

    Subscribing(SessionStore store) {
      super(store);
      this.subscriber = (SnapshotSubscriber) store;
    }

    @Override
    public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
      return withStoredId(
          context, "snapshot ID", snapshotId, id -> subscriber.onSnapshotStatusChange(context, id));
    }
  }
}
