/**
 * The Model Context Protocol for Baton, on the official MCP Java SDK (protocol version 2025-11-25
 * and earlier, as the SDK negotiates).
 */
@NullMarked
package dev.baton.mcp;

import org.jspecify.annotations.NullMarked;
