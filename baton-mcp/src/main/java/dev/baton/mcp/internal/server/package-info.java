/**
 * The MCP server's machinery: Baton's actions and prompts as the SDK's tool and prompt
 * specifications, the servlet filters that authenticate requests and carry cancellations, and the
 * endpoint in Jetty's servlet container. Not exported.
 */
@NullMarked
package dev.baton.mcp.internal.server;

import org.jspecify.annotations.NullMarked;
