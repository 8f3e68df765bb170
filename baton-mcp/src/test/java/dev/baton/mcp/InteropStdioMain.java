package dev.baton.mcp;

import dev.baton.Baton;

/**
 * The child JVM of the stdio interop test: serves {@link InteropApp} over stdin/stdout until stdin
 * ends. Nothing else may write to stdout, which is the protocol's; the tests log with slf4j-nop.
 */
public final class InteropStdioMain {
  private InteropStdioMain() {}

  public static void main(String[] args) {
    try (Baton baton = InteropApp.build()) {
      InteropApp.server(baton).build().serveStdio();
    }
  }
}
