/**
 * The client side's machinery: one connection to an MCP server ({@link
 * dev.baton.mcp.internal.client.ServerConnection}) that starts, restarts and stops it, the mapping
 * of SDK errors to Genkit statuses, and of tool results to Baton parts. Not exported.
 */
@NullMarked
package dev.baton.mcp.internal.client;

import org.jspecify.annotations.NullMarked;
