/**
 * What the MCP client and server share: the SDK's JSON mapper over Baton's, the version both give
 * in the handshake, and the mapping between Baton's parts and MCP content. Not exported.
 */
@NullMarked
package dev.baton.mcp.internal;

import org.jspecify.annotations.NullMarked;
