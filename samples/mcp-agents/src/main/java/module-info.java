/**
 * Baton's mcp-agents sample: an agent on the MCP filesystem server's tools, and a researcher served
 * over MCP.
 */
module dev.baton.samples.mcpagents {
  requires dev.baton;
  requires dev.baton.mcp;
  requires dev.baton.server;
  requires dev.baton.googleai;
}
