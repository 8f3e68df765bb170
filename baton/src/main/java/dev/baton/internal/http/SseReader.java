package dev.baton.internal.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Reads the {@code data} of Server-Sent Events from a UTF-8 stream, one event at a time.
 *
 * <p>Lines end with LF, CRLF or CR. A {@code data:} line adds its value (one leading space removed)
 * to the current event; several {@code data:} lines of one event are joined with LF, as the SSE
 * specification says. A blank line ends the event. Lines starting with {@code :} are comments
 * (keep-alives, proxy notes) and are skipped, as are the {@code event}, {@code id} and {@code
 * retry} fields, which none of Genkit's streams use. An event still open when the stream ends is
 * returned as well, so a server that omits the final blank line loses nothing.
 *
 * <p>Not thread-safe: one reader per response body.
 */
public final class SseReader {
  private final BufferedReader lines;

  public SseReader(InputStream body) {
    this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
  }

  /** The data of the next event that has any, or null at the end of the stream. */
  public @Nullable String next() throws IOException {
    StringBuilder data = null;
    String line;
    while ((line = lines.readLine()) != null) {
      if (line.isEmpty()) {
        if (data != null) {
          return data.toString();
        }
        continue;
      }
      if (!line.startsWith("data:")) {
        continue;
      }
      String value = line.substring(5);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      if (data == null) {
        data = new StringBuilder(value);
      } else {
        data.append('\n').append(value);
      }
    }
    return data == null ? null : data.toString();
  }
}
