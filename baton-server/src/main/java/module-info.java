/**
 * Serves Baton agents and flows over HTTP in Genkit's wire format: {@link
 * dev.baton.server.BatonHandler} is a Jetty 12 core handler (no servlets), {@link
 * dev.baton.server.BatonServer} runs one on its own, and {@link dev.baton.server.ContextProviders}
 * authenticates requests.
 */
module dev.baton.server {
  requires transitive dev.baton;
  requires transitive org.eclipse.jetty.server;
  requires org.slf4j;

  exports dev.baton.server;
  // The MCP transport authenticates and reports failures by the same rules.
  exports dev.baton.server.internal to
      dev.baton.mcp;
}
