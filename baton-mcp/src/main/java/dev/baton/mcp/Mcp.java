package dev.baton.mcp;

import dev.baton.Baton;

/**
 * Where MCP starts: {@code Mcp.client(name)} configures a connection to an MCP server whose tools
 * Baton agents call, {@code Mcp.server(baton)} serves Baton's actions to MCP clients.
 */
public final class Mcp {
  private Mcp() {}

  /** Configures an MCP server of {@code baton}'s tools, flows, agents and prompts. */
  public static McpServer.Builder server(Baton baton) {
    return new McpServer.Builder(baton);
  }
}
