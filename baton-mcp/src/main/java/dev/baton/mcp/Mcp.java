package dev.baton.mcp;

import dev.baton.Baton;

/**
 * Where MCP starts: {@code Mcp.client(name)} configures a connection to an MCP server whose tools
 * Baton agents call, {@code Mcp.server(baton)} serves Baton's actions to MCP clients.
 */
public final class Mcp {
  private Mcp() {}

  /**
   * Starts configuring a client of one MCP server; {@code name} prefixes its tools ({@code
   * fs/read_file}) and names it in errors and traces.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for a blank name or one with
   *     {@code /}
   */
  public static McpClient.Builder client(String name) {
    return McpClient.builder(name);
  }

  /** Configures an MCP server of {@code baton}'s tools, flows, agents and prompts. */
  public static McpServer.Builder server(Baton baton) {
    return new McpServer.Builder(baton);
  }
}
