package dev.baton.samples.basicagents;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import org.jspecify.annotations.Nullable;

/**
 * The terminal, shared by the chat's streamed text and the delegation lines that tool threads print
 * meanwhile: a line always starts on a line of its own, however the text around it ended. It also
 * reads the user's lines, and echoes them when they are piped in, since then nothing else shows
 * them and the answer would start on the prompt's line. Thread-safe.
 */
final class Console {
  private final PrintStream out;
  private final boolean echo;
  private boolean atLineStart = true;

  /**
   * @param echo whether to print each line read after its prompt: true unless a terminal echoes
   *     what the user types
   */
  Console(PrintStream out, boolean echo) {
    this.out = out;
    this.echo = echo;
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

  /**
   * Prints a prompt and reads the user's line; null at the end of input. The lock is not held while
   * waiting, so delegation lines still print.
   */
  @Nullable String ask(BufferedReader in, String prompt) throws IOException {
    say(prompt);
    String answer = in.readLine();
    synchronized (this) {
      // A terminal has moved to the next line when the user pressed Enter; nothing else has.
      if (answer == null || echo) {
        out.println(answer == null ? "" : answer);
      }
      atLineStart = true;
    }
    return answer;
  }
}
