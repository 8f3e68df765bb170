/**
 * The mcp-agents sample: {@code folderGuide} answers questions about a folder with the tools of the
 * MCP filesystem server, and the same Baton serves its {@code researcher} agent as an MCP tool,
 * over stdio or streamable HTTP.
 */
@NullMarked
package dev.baton.samples.mcpagents;

import org.jspecify.annotations.NullMarked;
