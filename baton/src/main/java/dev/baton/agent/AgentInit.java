package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.baton.core.BatonException;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Where an invocation's session comes from, sent once per invocation.
 *
 * <ul>
 *   <li>nothing: a fresh session;
 *   <li>{@code state}: a client-managed agent's session, as the client kept it;
 *   <li>{@code snapshotId}: a server-managed agent resumes that snapshot ({@code sessionId} may
 *       accompany it as an ownership check);
 *   <li>{@code sessionId} alone: a server-managed agent resumes the session's latest snapshot, or
 *       starts a session under that ID when it has none.
 * </ul>
 *
 * <p>A snapshot that failed or was aborted is resumed from the last good state before it (that of
 * its nearest completed ancestor, or an empty session when nothing was committed before it), so no
 * failure makes a session unusable. {@code continue} is Baton's extension for task continuation: it
 * resumes such a snapshot from the progress it saved instead. Genkit servers reject it as an
 * unknown field.
 */
public record AgentInit(
    @Nullable String sessionId,
    @Nullable String snapshotId,
    @Nullable SessionState state,
    @JsonProperty("continue") @Nullable Boolean continuation) {

  private static final Set<String> FIELDS = Set.of("sessionId", "snapshotId", "state", "continue");

  /** Empty IDs mean absent, as they do in Genkit's JSON. */
  public AgentInit {
    sessionId = sessionId == null || sessionId.isEmpty() ? null : sessionId;
    snapshotId = snapshotId == null || snapshotId.isEmpty() ? null : snapshotId;
  }

  /** A fresh session. */
  public static final AgentInit NEW = new AgentInit(null, null, null, null);

  /**
   * Resumes from a snapshot.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when the ID is empty: unlike an omitted JSON
   *     field, an empty ID given here is a mistake, never a request for a fresh session
   */
  public static AgentInit ofSnapshot(String snapshotId) {
    return new AgentInit(null, requireId(snapshotId, "snapshot"), null, null);
  }

  /**
   * Continues the session's latest snapshot, or starts the session under this ID when it has none.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when the ID is empty
   */
  public static AgentInit ofSession(String sessionId) {
    return new AgentInit(requireId(sessionId, "session"), null, null, null);
  }

  public static AgentInit ofState(SessionState state) {
    return new AgentInit(null, null, state, null);
  }

  /**
   * Continues from a snapshot, from the progress it saved even when it failed or was aborted (its
   * unfinished turn can then be re-attempted with {@link AgentInput#retryTurn()}).
   */
  public static AgentInit continueFrom(String snapshotId) {
    return new AgentInit(null, requireId(snapshotId, "snapshot"), null, true);
  }

  private static String requireId(String id, String kind) {
    if (id.isEmpty()) {
      throw BatonException.invalidArgument("%s ID is empty", kind);
    }
    return id;
  }

  /** Whether failed and aborted snapshots may be resumed. */
  public boolean isContinuation() {
    return Boolean.TRUE.equals(continuation);
  }

  /**
   * Reads an init from JSON, rejecting fields it does not have, as Genkit does: {@code {}} is a
   * fresh session, {@code {"bogus": true}} is {@code INVALID_ARGUMENT}.
   */
  public static AgentInit fromJson(@Nullable JsonNode json) {
    if (json == null || json.isNull() || json.isMissingNode()) {
      return NEW;
    }
    if (!json.isObject()) {
      throw BatonException.invalidArgument("init must be a JSON object");
    }
    for (String field : json.propertyNames()) {
      if (!FIELDS.contains(field)) {
        throw BatonException.invalidArgument("init has an unknown field \"%s\"", field);
      }
    }
    return dev.baton.core.Json.convert(json, AgentInit.class);
  }
}
