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
  // The servlet binding, for applications that serve Baton on a servlet container of their own.
  requires static jakarta.servlet;

  exports dev.baton.server;
  // The MCP transport and the A2A binding authenticate and report failures by the same rules, and
  // the Spring Boot auto-configuration serves the same protocol on the application's servlet
  // container.
  exports dev.baton.server.internal to
      dev.baton.a2a,
      dev.baton.mcp,
      dev.baton.spring.autoconfigure;
  exports dev.baton.server.internal.protocol to
      dev.baton.a2a,
      dev.baton.mcp,
      dev.baton.spring.autoconfigure;
  exports dev.baton.server.internal.servlet to
      dev.baton.mcp,
      dev.baton.spring.autoconfigure;
}
