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
 * <p>It follows the event-stream interpretation of the SSE specification (WHATWG HTML, "Server-sent
 * events"). One byte-order mark at the start of the stream is dropped. Lines end with LF, CRLF or
 * CR. A {@code data:} line adds its value (one leading space removed) to the current event, and a
 * line that is exactly {@code data}, with no colon, adds an empty value; the values of one event
 * are joined with LF. A blank line ends the event. Lines starting with {@code :} are comments
 * (keep-alives, proxy notes) and are skipped, as are the {@code event}, {@code id} and {@code
 * retry} fields: the streams Baton reads either have none or (as Anthropic's) name each event's
 * type in its data as well. An event still open when the stream ends is returned as well, so a
 * server that omits the final blank line loses nothing.
 *
 * <p>{@link #genkitFrames} also reads {@code error:} lines as data: Genkit JS's servers write a
 * failure as {@code error: {"error": {...}}} rather than as a {@code data:} line, and the JSON
 * itself says it is an error.
 *
 * <p>Not thread-safe: one reader per response body.
 */
public final class SseReader {
  private static final char BYTE_ORDER_MARK = '\uFEFF';

  private final BufferedReader lines;
  private final boolean errorLinesAreData;
  private boolean started;

  public SseReader(InputStream body) {
    this(body, false);
  }

  private SseReader(InputStream body, boolean errorLinesAreData) {
    this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    this.errorLinesAreData = errorLinesAreData;
  }

  /** A reader of a Genkit agent or flow stream, whose {@code error:} lines count as data. */
  public static SseReader genkitFrames(InputStream body) {
    return new SseReader(body, true);
  }

  /** The data of the next event that has any, or null at the end of the stream. */
  public @Nullable String next() throws IOException {
    StringBuilder data = null;
    String line;
    while ((line = nextLine()) != null) {
      if (line.isEmpty()) {
        if (data != null) {
          return data.toString();
        }
        continue;
      }
      String value = dataValue(line);
      if (value == null) {
        continue;
      }
      if (data == null) {
        data = new StringBuilder(value);
      } else {
        data.append('\n').append(value);
      }
    }
    return data == null ? null : data.toString();
  }

  private @Nullable String nextLine() throws IOException {
    String line = lines.readLine();
    if (!started && line != null) {
      started = true;
      if (!line.isEmpty() && line.charAt(0) == BYTE_ORDER_MARK) {
        return line.substring(1);
      }
    }
    return line;
  }

  /**
   * The value of a {@code data} field line (or of an {@code error} line, for Genkit's frames), or
   * null when the line is another field or a comment.
   */
  private @Nullable String dataValue(String line) {
    if (line.equals("data") || (errorLinesAreData && line.equals("error"))) {
      return "";
    }
    int field =
        line.startsWith("data:") ? 5 : errorLinesAreData && line.startsWith("error:") ? 6 : -1;
    if (field < 0) {
      return null;
    }
    String value = line.substring(field);
    return value.startsWith(" ") ? value.substring(1) : value;
  }
}
