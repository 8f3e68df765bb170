package dev.baton.samples.basicagents;

import java.io.PrintStream;

/**
 * The terminal, shared by the chat's streamed text and the delegation lines that tool threads print
 * meanwhile: a line always starts on a line of its own, however the text around it ended.
 * Thread-safe.
 */
final class Console {
  private final PrintStream out;
  private boolean atLineStart = true;

  Console(PrintStream out) {
    this.out = out;
  }

  /** Prints text as it comes, such as a streamed answer. */
  synchronized void say(String text) {
    if (text.isEmpty()) {
      return;
    }
    out.print(text);
    out.flush();
    atLineStart = text.endsWith("\n");
  }

  /** Prints a whole line, on a line of its own. */
  synchronized void line(String line) {
    if (!atLineStart) {
      out.println();
    }
    out.println(line);
    atLineStart = true;
  }
}
