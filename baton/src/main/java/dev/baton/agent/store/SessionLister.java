package dev.baton.agent.store;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionSummary;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.GenerationUsage;
import dev.baton.core.Cancellation;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.internal.store.RowHeader;
import dev.baton.internal.store.SessionListing;
import dev.baton.internal.store.SnapshotRules;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Lists the sessions of a snapshot directory, for {@link FileSessionStore#listSessions}. The store
 * keeps no index of its sessions, so a page costs one pass over the folder's row headers (the few
 * fields the store writes before the conversation, as the scan of a session reads them), and then
 * one streamed read of each listed session's latest row for its finish reason, error, heartbeat and
 * usage, which skips the conversation without decoding it.
 *
 * <p>Files that are not intact rows of the snapshot their name stands for (damaged, Genkit Go's
 * without the header fields, left over) are passed over, as the scan passes over them; a latest row
 * whose fields past the header cannot be read is listed without them.
 *
 * <p>Stateless; thread-safe.
 */
final class SessionLister {
  private static final Logger log = LoggerFactory.getLogger(SessionLister.class);

  private static final Comparator<Tally> NEWEST_FIRST =
      Comparator.comparing((Tally t) -> t.updatedAt).thenComparing(t -> t.sessionId).reversed();

  private SessionLister() {}

  /** What the headers tell of one session: its rows, extent and latest row. */
  private static final class Tally {
    final String sessionId;
    int turns;
    Instant createdAt = Instant.MAX;
    Instant updatedAt = Instant.MIN;
    String latestId = "";
    Instant latestCreatedAt = Instant.MIN;
    SnapshotStatus latestStatus = SnapshotStatus.COMPLETED;
    @Nullable Path latestFile;

    Tally(String sessionId) {
      this.sessionId = sessionId;
    }

    void add(Path file, RowHeader header, String snapshotId, Instant rowCreatedAt) {
      turns++;
      if (rowCreatedAt.isBefore(createdAt)) {
        createdAt = rowCreatedAt;
      }
      Instant rowUpdatedAt = header.updatedAt() == null ? rowCreatedAt : header.updatedAt();
      if (rowUpdatedAt.isAfter(updatedAt)) {
        updatedAt = rowUpdatedAt;
      }
      if (latestFile == null
          || SnapshotRules.isMoreRecent(rowCreatedAt, snapshotId, latestCreatedAt, latestId)) {
        latestId = snapshotId;
        latestCreatedAt = rowCreatedAt;
        latestStatus = header.statusOrCompleted();
        latestFile = file;
      }
    }
  }

  /**
   * The page {@code query} asks for.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for a malformed page token;
   *     {@code CANCELLED} when {@code cancellation} fires between two files
   */
  static SessionPage list(
      SnapshotDirectory directory, SessionQuery query, Cancellation cancellation) {
    SessionListing.Position after = SessionListing.after(query);
    if (!Files.isDirectory(directory.path())) {
      return new SessionPage(List.of(), null);
    }
    String prefix = query.sessionIdPrefix();
    Map<String, Tally> sessions = new HashMap<>();
    for (Path file : directory.list().rowFiles()) {
      LatestRowFinder.throwIfStopped(cancellation);
      SnapshotDirectory.HeaderRead read =
          SnapshotDirectory.readHeaderAt(file, SnapshotDirectory.HeaderFields.LISTING);
      if (read == null || !read.intact()) {
        continue;
      }
      RowHeader header = read.header();
      String sessionId = header.sessionId();
      String snapshotId = header.snapshotId();
      Instant createdAt = header.createdAt();
      if (sessionId == null
          || snapshotId == null
          || createdAt == null
          || !SafeIds.isSafe(sessionId)
          || !SafeIds.isSafe(snapshotId)
          || !directory.isFileOf(file, snapshotId)
          || (prefix != null && !sessionId.startsWith(prefix))) {
        continue;
      }
      sessions.computeIfAbsent(sessionId, Tally::new).add(file, header, snapshotId, createdAt);
    }
    List<SessionSummary> firstAndOneMore =
        sessions.values().stream()
            .filter(t -> query.status() == null || query.status() == t.latestStatus)
            .filter(t -> after == null || after.precedes(t.updatedAt, t.sessionId))
            .sorted(NEWEST_FIRST)
            .limit(query.limit() + 1L)
            .map(SessionLister::summary)
            .toList();
    return SessionListing.pageOf(firstAndOneMore, query.limit());
  }

  /** A session's summary: its tally, and what its latest row holds past the header. */
  private static SessionSummary summary(Tally tally) {
    Details details = Details.read(Objects.requireNonNull(tally.latestFile), tally.sessionId);
    return SessionSummary.builder(tally.sessionId, tally.latestId, tally.createdAt)
        .status(tally.latestStatus)
        .finishReason(details.finishReason())
        .error(details.error())
        .heartbeatAt(details.heartbeatAt())
        .turns(tally.turns)
        .updatedAt(tally.updatedAt)
        .spend(details.usage())
        .build();
  }

  /**
   * Every intact row of a session, oldest first, without its conversation: one pass over the
   * folder's row headers, then one streamed read of each of the session's rows that skips its
   * conversation without decoding it.
   *
   * @throws dev.baton.core.BatonException {@code CANCELLED} when {@code cancellation} fires between
   *     two files
   */
  static List<SessionSnapshot> rows(
      SnapshotDirectory directory, String sessionId, Cancellation cancellation) {
    if (!Files.isDirectory(directory.path())) {
      return List.of();
    }
    List<SessionSnapshot> rows = new ArrayList<>();
    for (Path file : directory.list().rowFiles()) {
      LatestRowFinder.throwIfStopped(cancellation);
      SnapshotDirectory.HeaderRead read =
          SnapshotDirectory.readHeaderAt(file, SnapshotDirectory.HeaderFields.ALL);
      if (read == null || !read.intact()) {
        continue;
      }
      RowHeader header = read.header();
      String snapshotId = header.snapshotId();
      Instant createdAt = header.createdAt();
      if (!sessionId.equals(header.sessionId())
          || snapshotId == null
          || createdAt == null
          || !SafeIds.isSafe(snapshotId)
          || !directory.isFileOf(file, snapshotId)) {
        continue;
      }
      Details details = Details.read(file, sessionId);
      rows.add(
          SessionSnapshot.builder(snapshotId, createdAt)
              .sessionId(sessionId)
              .parentId(header.parentId())
              .updatedAt(header.updatedAt())
              .status(header.statusOrCompleted())
              .finishReason(details.finishReason())
              .error(details.error())
              .heartbeatAt(details.heartbeatAt())
              .state(
                  details.usage() == null ? null : SessionState.empty().withUsage(details.usage()))
              .build());
    }
    rows.sort(SessionListing.OLDEST_FIRST);
    return rows;
  }

  /** What a row holds past its header, but for its conversation. */
  private record Details(
      @Nullable AgentFinishReason finishReason,
      @Nullable ErrorInfo error,
      @Nullable Instant heartbeatAt,
      @Nullable GenerationUsage usage) {

    /** A streamed read of the row's file; nothing when it cannot be read. */
    static Details read(Path file, String sessionId) {
      AgentFinishReason finishReason = null;
      ErrorInfo error = null;
      Instant heartbeatAt = null;
      GenerationUsage usage = null;
      try (InputStream in = Files.newInputStream(file);
          JsonParser parser = Json.mapper().createParser(in)) {
        if (parser.nextToken() == JsonToken.START_OBJECT) {
          while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            switch (name) {
              case "finishReason" -> finishReason = parser.readValueAs(AgentFinishReason.class);
              case "error" -> error = parser.readValueAs(ErrorInfo.class);
              case "heartbeatAt" -> heartbeatAt = parser.readValueAs(Instant.class);
              case "state" -> usage = usageOf(parser);
              default -> parser.skipChildren();
            }
          }
        }
      } catch (IOException | JacksonException | IllegalArgumentException e) {
        // Rewritten, deleted or damaged since its header was read: listed with what the header
        // told.
        log.debug("listing a row of session {} without its details", sessionId, e);
      }
      return new Details(finishReason, error, heartbeatAt, usage);
    }
  }

  /** The {@code usage} of the state object the parser is at, skipping the rest of it. */
  private static @Nullable GenerationUsage usageOf(JsonParser parser) {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return null;
    }
    GenerationUsage usage = null;
    while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = parser.currentName();
      parser.nextToken();
      if (name.equals("usage")) {
        usage = parser.readValueAs(GenerationUsage.class);
      } else {
        parser.skipChildren();
      }
    }
    return usage;
  }
}
