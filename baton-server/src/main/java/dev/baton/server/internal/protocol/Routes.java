package dev.baton.server.internal.protocol;

import dev.baton.core.ActionType;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a handler serves where: the routes the application chose for agents and flows, and the
 * default layout, {@code /agents/<name>} and {@code /flows/<name>}, for those it mounted by name or
 * all at once. A route is chosen only outside what the default layout serves: inside, it would hide
 * a default route, and could take an agent's turns while the agent's companions still answer beside
 * it. Immutable and thread-safe; the builder is not thread-safe.
 */
final class Routes {
  private final Map<String, Route> chosen;
  private final boolean allAgents;
  private final Set<String> agents;
  private final boolean allFlows;
  private final Set<String> flows;

  private Routes(Builder builder) {
    this.chosen = Map.copyOf(builder.chosen);
    this.allAgents = builder.allAgents;
    this.agents = Set.copyOf(builder.agents);
    this.allFlows = builder.allFlows;
    this.flows = Set.copyOf(builder.flows);
  }

  static Builder builder() {
    return new Builder();
  }

  /** The route a request's path (within the handler's context) reaches, or null for none. */
  @Nullable Route resolve(String path) {
    Route route = chosen.get(path);
    return route != null ? route : laidOut(path);
  }

  /** Whether an agent of this name is served, at its default route or one of its own. */
  boolean servesAgent(String name) {
    if (allAgents || agents.contains(name)) {
      return true;
    }
    for (Route route : chosen.values()) {
      if (route.type() == ActionType.AGENT && route.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** The paths of the routes the application chose. */
  Set<String> chosenPaths() {
    return chosen.keySet();
  }

  /** The route the default layout serves at a path, or null when it serves none there. */
  private @Nullable Route laidOut(String path) {
    Route laidOut = Route.inDefaultLayout(path);
    if (laidOut == null) {
      return null;
    }
    boolean flow = laidOut.type() == ActionType.FLOW;
    boolean named = (flow ? flows : agents).contains(laidOut.name());
    if (!named && !(flow ? allFlows : allAgents)) {
      return null;
    }
    return new Route(laidOut.type(), laidOut.name(), path, named);
  }

  /** Collects the routes. */
  static final class Builder {
    // In the order chosen, so a build that refuses several names the first.
    private final Map<String, Route> chosen = new LinkedHashMap<>();
    private final Set<String> agents = new HashSet<>();
    private final Set<String> flows = new HashSet<>();
    private boolean allAgents;
    private boolean allFlows;

    private Builder() {}

    void allAgents() {
      allAgents = true;
    }

    void agents(List<String> names) {
      agents.addAll(names);
    }

    void allFlows() {
      allFlows = true;
    }

    void flows(List<String> names) {
      flows.addAll(names);
    }

    /** Serves an agent at {@code path}, and its companions at the path's companion suffixes. */
    void agentAt(String path, String name) {
      Objects.requireNonNull(path, "route");
      Objects.requireNonNull(name, "name");
      Map<String, Route> routes = new LinkedHashMap<>();
      routes.put(path, new Route(ActionType.AGENT, name, path, true));
      Route.COMPANIONS.forEach(
          (suffix, type) -> routes.put(path + suffix, new Route(type, name, path + suffix, true)));
      choose(path, routes);
    }

    /** Serves a flow at {@code path}. */
    void flowAt(String path, String name) {
      Objects.requireNonNull(path, "route");
      Objects.requireNonNull(name, "name");
      choose(path, Map.of(path, new Route(ActionType.FLOW, name, path, true)));
    }

    private void choose(String path, Map<String, Route> routes) {
      checkPath(path);
      for (Route route : routes.values()) {
        Route taken = chosen.get(route.path());
        if (taken != null) {
          throw new IllegalArgumentException(
              "the route "
                  + route.path()
                  + " is taken: it serves "
                  + taken.type().key(taken.name()));
        }
      }
      chosen.putAll(routes);
    }

    /**
     * The routes, as this builder was given them.
     *
     * @throws IllegalArgumentException when a chosen route is one the default layout serves (with
     *     the mounts, whenever they were made)
     */
    Routes build() {
      Routes routes = new Routes(this);
      for (String path : chosen.keySet()) {
        Route hidden = routes.laidOut(path);
        if (hidden != null) {
          throw new IllegalArgumentException(
              "the route "
                  + path
                  + " is taken: the default layout serves "
                  + hidden.type().key(hidden.name())
                  + " there; choose a route outside it");
        }
      }
      return routes;
    }
  }

  /**
   * A chosen route is an absolute path of non-empty segments, with no query, fragment, {@code .} or
   * {@code ..}: the path a request names, decoded, within the handler's context.
   */
  static void checkPath(String path) {
    boolean valid = path.startsWith("/") && !path.contains("?") && !path.contains("#");
    for (String segment : path.substring(valid ? 1 : 0).split("/", -1)) {
      valid &= !segment.isEmpty() && !segment.equals(".") && !segment.equals("..");
    }
    if (!valid) {
      throw new IllegalArgumentException(
          "not a route: \""
              + path
              + "\"; a route is an absolute path of non-empty segments, such as /api/researcher,"
              + " without a trailing slash, query or fragment");
    }
  }
}
