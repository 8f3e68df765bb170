/**
 * The Model Context Protocol for Baton, on the official MCP Java SDK: an MCP server's tools,
 * prompts and resources in Baton agents ({@code McpClient}), and Baton's tools, flows, agents and
 * prompts served over MCP ({@code McpServer}).
 */
module dev.baton.mcp {
  requires transitive dev.baton;
  requires transitive dev.baton.server;
  requires io.modelcontextprotocol.sdk.mcp.core;
  requires io.modelcontextprotocol.sdk.mcp.json.jackson3;
  requires reactor.core;
  requires org.eclipse.jetty.ee10.servlet;
  requires org.slf4j;

  exports dev.baton.mcp;
}
