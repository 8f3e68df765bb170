package dev.baton.server.internal.protocol.console;

import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSummary;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sessions of several agents as one list, newest first, in pages. Each agent's store pages by
 * position ({@link SessionQuery}); the console's page token holds each agent's position, so a page
 * takes the newest sessions across the agents, and the next one goes on from where each agent's
 * part of it ended. A position is the agent's store token (or the start), and, when a page showed
 * only part of what the store answered from there, the last session it showed: the next page reads
 * from the same store token and skips what is not older than that session. Sessions saved between
 * pages neither repeat nor shift the rest, as in one store. An agent that shares its store with
 * another lists the same sessions under its own name. Stateless.
 */
final class SessionListing {
  private static final Comparator<Listed> NEWEST_FIRST =
      Comparator.comparing((Listed listed) -> listed.session().updatedAt())
          .thenComparing(listed -> listed.session().sessionId())
          .thenComparing(Listed::agent)
          .reversed();

  private record Listed(String agent, SessionSummary session) {}

  /**
   * Where an agent's part of the list goes on: from its store's token (null for the start), past
   * {@code shown} when a page showed part of what the store answered from there.
   */
  private record Position(@Nullable String token, @Nullable Shown shown) {
    static final Position START = new Position(null, null);

    /** Whether a session the store answered from the token comes after what was shown. */
    boolean follows(SessionSummary session) {
      if (shown == null) {
        return true;
      }
      int byTime = session.updatedAt().compareTo(shown.updatedAt());
      return byTime < 0 || (byTime == 0 && session.sessionId().compareTo(shown.sessionId()) < 0);
    }
  }

  /** The last session a page showed of an agent's, by the fields the list is ordered by. */
  private record Shown(Instant updatedAt, String sessionId) {}

  private SessionListing() {}

  /**
   * A page of {@code agents}' sessions ({@code {"sessions", "nextPageToken", "unlisted"}}).
   *
   * @param agents the agents listed, by name, each seen by the request's principal
   * @param skipUnlisting whether an agent whose store cannot list its sessions is left out (and
   *     named in {@code unlisted}) rather than failing the page
   * @param pageToken a previous page's token, for the same agents and status, or null
   * @throws BatonException {@code INVALID_ARGUMENT} for a token this listing did not make, or one
   *     the agent's store refuses; {@code UNIMPLEMENTED} for an agent whose store cannot list its
   *     sessions, unless skipped
   */
  static ObjectNode page(
      Map<String, AgentSnapshots> agents,
      boolean skipUnlisting,
      @Nullable SnapshotStatus status,
      int limit,
      @Nullable String pageToken) {
    SessionQuery query = SessionQuery.firstPage().withStatus(status).withLimit(limit);
    Map<String, Position> positions = positions(agents, pageToken);
    List<Listed> candidates = new ArrayList<>();
    Map<String, SessionPage> pages = new LinkedHashMap<>();
    List<String> unlisted = new ArrayList<>();
    positions.forEach(
        (agent, position) -> {
          SessionPage page;
          try {
            page = snapshots(agents, agent).sessions(query.withPageToken(position.token()));
          } catch (BatonException e) {
            if (!skipUnlisting || e.status() != Status.UNIMPLEMENTED) {
              throw e;
            }
            unlisted.add(agent);
            return;
          }
          List<SessionSummary> after = page.sessions().stream().filter(position::follows).toList();
          pages.put(agent, new SessionPage(after, page.nextPageToken()));
          after.forEach(session -> candidates.add(new Listed(agent, session)));
        });
    candidates.sort(NEWEST_FIRST);
    List<Listed> taken = candidates.subList(0, Math.min(query.limit(), candidates.size()));
    ObjectNode body = Json.object();
    ArrayNode sessions = body.putArray("sessions");
    Map<String, Shown> lastTaken = new LinkedHashMap<>();
    Map<String, Integer> takenPerAgent = new LinkedHashMap<>();
    for (Listed listed : taken) {
      sessions.add(Views.session(listed.agent(), listed.session()));
      takenPerAgent.merge(listed.agent(), 1, Integer::sum);
      lastTaken.put(
          listed.agent(), new Shown(listed.session().updatedAt(), listed.session().sessionId()));
    }
    Map<String, Position> next = new LinkedHashMap<>();
    pages.forEach(
        (agent, page) -> {
          Position position = Objects.requireNonNull(positions.get(agent));
          int count = takenPerAgent.getOrDefault(agent, 0);
          if (count < page.sessions().size()) {
            // Part of the agent's answer was shown: go on from the same token, past the last shown
            // session (read now, so a save between pages does not move the position).
            Shown last = lastTaken.get(agent);
            next.put(agent, last == null ? position : new Position(position.token(), last));
          } else if (page.nextPageToken() != null) {
            next.put(agent, new Position(page.nextPageToken(), null));
          }
        });
    body.put("nextPageToken", next.isEmpty() ? null : encode(next));
    ArrayNode names = body.putArray("unlisted");
    unlisted.forEach(names::add);
    return body;
  }

  /** Where each agent's part of the page starts: the start for all, or where the token says. */
  private static Map<String, Position> positions(
      Map<String, AgentSnapshots> agents, @Nullable String pageToken) {
    Map<String, Position> positions = new LinkedHashMap<>();
    if (pageToken == null || pageToken.isEmpty()) {
      agents.keySet().forEach(agent -> positions.put(agent, Position.START));
      return positions;
    }
    JsonNode decoded;
    try {
      decoded = Json.parse(Base64.getUrlDecoder().decode(pageToken));
    } catch (RuntimeException malformed) {
      throw malformed();
    }
    if (!decoded.isObject()) {
      throw malformed();
    }
    for (Map.Entry<String, JsonNode> entry : decoded.properties()) {
      Position position = position(entry.getValue());
      // An agent no longer served has nothing more to list.
      if (agents.containsKey(entry.getKey())) {
        positions.put(entry.getKey(), position);
      }
    }
    return positions;
  }

  /** An agent's position in a token: {@code {"token", "updatedAt", "sessionId"}}. */
  private static Position position(JsonNode node) {
    JsonNode token = node.path("token");
    JsonNode updatedAt = node.path("updatedAt");
    JsonNode sessionId = node.path("sessionId");
    if (!node.isObject()
        || !(token.isString() || token.isNull())
        || updatedAt.isString() != sessionId.isString()
        || !(updatedAt.isString() || updatedAt.isMissingNode())
        || !(sessionId.isString() || sessionId.isMissingNode())) {
      throw malformed();
    }
    String storeToken = token.isNull() ? null : token.asString();
    if (!updatedAt.isString()) {
      return new Position(storeToken, null);
    }
    try {
      return new Position(
          storeToken, new Shown(Instant.parse(updatedAt.asString()), sessionId.asString()));
    } catch (RuntimeException malformed) {
      throw malformed();
    }
  }

  private static AgentSnapshots snapshots(Map<String, AgentSnapshots> agents, String agent) {
    return Objects.requireNonNull(agents.get(agent), agent);
  }

  private static String encode(Map<String, Position> positions) {
    ObjectNode token = Json.object();
    positions.forEach(
        (agent, position) -> {
          ObjectNode node = token.putObject(agent);
          node.put("token", position.token());
          if (position.shown() != null) {
            node.put("updatedAt", position.shown().updatedAt().toString());
            node.put("sessionId", position.shown().sessionId());
          }
        });
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(Json.write(token).getBytes(StandardCharsets.UTF_8));
  }

  private static BatonException malformed() {
    return BatonException.invalidArgument(
        "the page token is not one this console returned: pass a page's nextPageToken as it came");
  }
}
