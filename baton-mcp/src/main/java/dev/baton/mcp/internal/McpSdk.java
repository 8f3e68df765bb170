package dev.baton.mcp.internal;

import dev.baton.core.Json;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;

/** What the client and the server both give the MCP SDK. */
public final class McpSdk {
  /** The SDK's JSON mapper over Baton's, so that MCP JSON reads and writes as Baton's does. */
  public static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(Json.mapper());

  /** The name Baton gives in the handshake, as a client ({@code clientInfo}) and a server. */
  public static final String NAME = "baton";

  private McpSdk() {}

  /** Baton's version, as the handshake gives it: {@code "dev"} outside a released jar. */
  public static String version() {
    String version = McpSdk.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
