package dev.baton.mcp;

/**
 * Where MCP starts: {@code Mcp.client(name)} configures a connection to an MCP server whose tools
 * Baton agents call, {@code Mcp.server(baton)} serves Baton's actions to MCP clients.
 */
public final class Mcp {
  private Mcp() {}
}
