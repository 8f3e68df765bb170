package dev.baton.agent;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of {@link SessionStore#listSessions}: sessions newest first by {@link
 * SessionSummary#updatedAt()}.
 *
 * @param sessions the page's sessions, at most the query's limit
 * @param nextPageToken the token of the next page ({@link SessionQuery#withPageToken}), or null
 *     when this is the last
 */
public record SessionPage(List<SessionSummary> sessions, @Nullable String nextPageToken) {
  public SessionPage {
    sessions = List.copyOf(sessions);
  }
}
