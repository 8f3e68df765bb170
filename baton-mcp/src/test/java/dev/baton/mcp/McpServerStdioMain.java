package dev.baton.mcp;

import dev.baton.Baton;

/** A Baton application that serves a flow over stdio, as a desktop client starts one. */
public final class McpServerStdioMain {
  private McpServerStdioMain() {}

  public static void main(String[] args) {
    try (Baton baton = Baton.builder().build()) {
      baton.defineFlow("shout", String.class, String.class, (ctx, in) -> in.toUpperCase());
      try (McpServer mcp = Mcp.server(baton).flows("shout").build()) {
        mcp.serveStdio();
      }
    }
  }
}
