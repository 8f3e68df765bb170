package dev.baton.server.internal.protocol;

import dev.baton.core.ActionType;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A path the server answers, and what runs there.
 *
 * @param type the type of the action the route runs
 * @param name the agent's or flow's name
 * @param path the path within the handler's context
 * @param named whether the application named the agent or flow (by name or at a route of its
 *     choosing), rather than serving all of them: only a named remote agent is served
 */
public record Route(ActionType type, String name, String path, boolean named) {
  /** An agent's companions, at these suffixes of the agent's own route, as Genkit places them. */
  static final Map<String, ActionType> COMPANIONS =
      Map.of(
          "/getSnapshot", ActionType.AGENT_SNAPSHOT,
          "/waitForSnapshot", ActionType.AGENT_WAIT,
          "/abort", ActionType.AGENT_ABORT);

  /**
   * The route a path names in the default layout, {@code /agents/<name>} (and its companions'
   * suffixes) or {@code /flows/<name>}, each name one path segment; null when it names none.
   * Whether the agent or flow is served there is the handler's mounts' call.
   */
  static @Nullable Route inDefaultLayout(String path) {
    String[] segments = path.split("/", -1);
    // "/agents/x" splits into "", "agents", "x".
    if (segments.length < 3 || !segments[0].isEmpty() || segments[2].isEmpty()) {
      return null;
    }
    String name = segments[2];
    if (segments[1].equals("flows")) {
      return segments.length == 3 ? new Route(ActionType.FLOW, name, path, false) : null;
    }
    if (!segments[1].equals("agents") || segments.length > 4) {
      return null;
    }
    ActionType type = segments.length == 3 ? ActionType.AGENT : COMPANIONS.get("/" + segments[3]);
    return type == null ? null : new Route(type, name, path, false);
  }

  /** Whether the route runs one of an agent's companions. */
  public boolean isCompanion() {
    return type != ActionType.FLOW && type != ActionType.AGENT;
  }

  @Override
  public String toString() {
    return path;
  }
}
