package dev.baton.mcp.internal.client;

import java.net.URI;
import java.util.List;
import java.util.Map;

/** Where an MCP server is: a command Baton runs (stdio), or a streamable HTTP endpoint. */
public sealed interface Endpoint {

  /**
   * A server Baton starts as a child process and talks to over its stdin and stdout, with the SDK's
   * safe variables and {@code environment}, or the JVM's whole environment under them when {@code
   * inheritEnvironment}.
   */
  record Stdio(
      String command,
      List<String> args,
      Map<String, String> environment,
      boolean inheritEnvironment)
      implements Endpoint {
    public Stdio {
      args = List.copyOf(args);
      environment = Map.copyOf(environment);
    }
  }

  /** A server at a streamable HTTP endpoint; {@code headers} go on every request. */
  record Http(URI uri, Map<String, String> headers) implements Endpoint {
    public Http {
      headers = Map.copyOf(headers);
    }
  }
}
