package dev.baton.server.internal.protocol.console;

import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSummary;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.nio.charset.StandardCharsets;
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
 * position ({@link SessionQuery}); the console's page token holds each agent's position (its
 * store's token, or the start), so a page takes the newest sessions across the agents, and the next
 * one goes on from where each agent's part of it ended. Sessions saved between pages neither repeat
 * nor shift the rest, as in one store. An agent that shares its store with another lists the same
 * sessions under its own name. Stateless.
 */
final class SessionListing {
  private static final Comparator<Listed> NEWEST_FIRST =
      Comparator.comparing((Listed listed) -> listed.session().updatedAt())
          .thenComparing(listed -> listed.session().sessionId())
          .thenComparing(Listed::agent)
          .reversed();

  private record Listed(String agent, SessionSummary session) {}

  private SessionListing() {}

  /**
   * A page of {@code agents}' sessions ({@code {"sessions", "nextPageToken"}}).
   *
   * @param agents the agents listed, by name, each seen by the request's principal
   * @param pageToken a previous page's token, for the same agents and status, or null
   * @throws BatonException {@code INVALID_ARGUMENT} for a token this listing did not make, or one
   *     the agent's store refuses
   */
  static ObjectNode page(
      Map<String, AgentSnapshots> agents,
      @Nullable SnapshotStatus status,
      int limit,
      @Nullable String pageToken) {
    SessionQuery query = SessionQuery.firstPage().withStatus(status).withLimit(limit);
    Map<String, @Nullable String> positions = positions(agents, pageToken);
    List<Listed> candidates = new ArrayList<>();
    Map<String, SessionPage> pages = new LinkedHashMap<>();
    positions.forEach(
        (agent, position) -> {
          SessionPage page = snapshots(agents, agent).sessions(query.withPageToken(position));
          pages.put(agent, page);
          page.sessions().forEach(session -> candidates.add(new Listed(agent, session)));
        });
    candidates.sort(NEWEST_FIRST);
    List<Listed> taken = candidates.subList(0, Math.min(query.limit(), candidates.size()));
    ObjectNode body = Json.object();
    ArrayNode sessions = body.putArray("sessions");
    Map<String, Integer> takenPerAgent = new LinkedHashMap<>();
    for (Listed listed : taken) {
      sessions.add(Views.session(listed.agent(), listed.session()));
      takenPerAgent.merge(listed.agent(), 1, Integer::sum);
    }
    Map<String, @Nullable String> next = new LinkedHashMap<>();
    pages.forEach(
        (agent, page) -> {
          int count = takenPerAgent.getOrDefault(agent, 0);
          @Nullable String position = positions.get(agent);
          if (count == page.sessions().size()) {
            if (page.nextPageToken() != null) {
              next.put(agent, page.nextPageToken());
            }
          } else if (count == 0) {
            next.put(agent, position);
          } else {
            // Part of the agent's page was shown: its position is after the part, which a page
            // of that size from the same position ends at.
            next.put(
                agent,
                snapshots(agents, agent)
                    .sessions(query.withLimit(count).withPageToken(position))
                    .nextPageToken());
          }
        });
    body.put("nextPageToken", next.isEmpty() ? null : encode(next));
    return body;
  }

  /** Where each agent's part of the page starts: the start for all, or where the token says. */
  private static Map<String, @Nullable String> positions(
      Map<String, AgentSnapshots> agents, @Nullable String pageToken) {
    Map<String, @Nullable String> positions = new LinkedHashMap<>();
    if (pageToken == null || pageToken.isEmpty()) {
      agents.keySet().forEach(agent -> positions.put(agent, null));
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
      JsonNode position = entry.getValue();
      if (!position.isString() && !position.isNull()) {
        throw malformed();
      }
      // An agent no longer served has nothing more to list.
      if (agents.containsKey(entry.getKey())) {
        positions.put(entry.getKey(), position.isNull() ? null : position.asString());
      }
    }
    return positions;
  }

  private static AgentSnapshots snapshots(Map<String, AgentSnapshots> agents, String agent) {
    return Objects.requireNonNull(agents.get(agent), agent);
  }

  private static String encode(Map<String, @Nullable String> positions) {
    ObjectNode token = Json.object();
    positions.forEach(token::put);
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(Json.write(token).getBytes(StandardCharsets.UTF_8));
  }

  private static BatonException malformed() {
    return BatonException.invalidArgument(
        "the page token is not one this console returned: pass a page's nextPageToken as it came");
  }
}
