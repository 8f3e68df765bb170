/** The MCP module's own machinery; not exported, not API. */
@NullMarked
package dev.baton.mcp.internal;

import org.jspecify.annotations.NullMarked;
