package dev.baton.server.internal;

import dev.baton.core.ActionType;
import org.jspecify.annotations.Nullable;

/**
 * A path the server answers: {@code /agents/<name>}, {@code /agents/<name>/getSnapshot}, {@code
 * /agents/<name>/waitForSnapshot}, {@code /agents/<name>/abort} or {@code /flows/<name>}, each name
 * one path segment.
 *
 * @param type the type of the action the route runs
 * @param name the agent's or flow's name
 */
public record Route(ActionType type, String name) {

  /** The route of a path (within the handler's context), or null when it is none of them. */
  public static @Nullable Route of(String path) {
    String[] segments = path.split("/", -1);
    // "/agents/x" splits into "", "agents", "x".
    if (segments.length < 3 || !segments[0].isEmpty() || segments[2].isEmpty()) {
      return null;
    }
    String name = segments[2];
    if (segments[1].equals("flows")) {
      return segments.length == 3 ? new Route(ActionType.FLOW, name) : null;
    }
    if (!segments[1].equals("agents")) {
      return null;
    }
    if (segments.length == 3) {
      return new Route(ActionType.AGENT, name);
    }
    if (segments.length != 4) {
      return null;
    }
    return switch (segments[3]) {
      case "getSnapshot" -> new Route(ActionType.AGENT_SNAPSHOT, name);
      case "waitForSnapshot" -> new Route(ActionType.AGENT_WAIT, name);
      case "abort" -> new Route(ActionType.AGENT_ABORT, name);
      default -> null;
    };
  }

  /** Whether the route runs one of an agent's companions. */
  public boolean isCompanion() {
    return type != ActionType.FLOW && type != ActionType.AGENT;
  }

  @Override
  public String toString() {
    return switch (type) {
      case FLOW -> "/flows/" + name;
      case AGENT_SNAPSHOT -> "/agents/" + name + "/getSnapshot";
      case AGENT_WAIT -> "/agents/" + name + "/waitForSnapshot";
      case AGENT_ABORT -> "/agents/" + name + "/abort";
      default -> "/agents/" + name;
    };
  }
}
