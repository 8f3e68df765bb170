package dev.baton.a2a;

import dev.baton.core.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * A Server-Sent Events answer read line by line as it arrives, so that a test sees each frame while
 * the server is still streaming: the next frame, or the next comment line.
 */
final class SseLines implements AutoCloseable {
  private final Stream<String> lines;
  private final Iterator<String> iterator;

  private SseLines(Stream<String> lines) {
    this.lines = lines;
    this.iterator = lines.iterator();
  }

  /** Posts a JSON-RPC request and returns its stream once the headers have arrived. */
  static SseLines post(URI url, JsonNode request) throws Exception {
    HttpResponse<Stream<String>> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(url)
                    .header("Content-Type", "application/json")
                    .header("Accept", "text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(Json.write(request)))
                    .build(),
                HttpResponse.BodyHandlers.ofLines());
    if (response.statusCode() != 200) {
      throw new AssertionError("HTTP " + response.statusCode());
    }
    return new SseLines(response.body());
  }

  /** The next {@code data:} frame, parsed; comments and blank lines are skipped. */
  JsonNode nextFrame() {
    while (iterator.hasNext()) {
      String line = iterator.next();
      if (line.startsWith("data: ")) {
        return Json.parse(line.substring("data: ".length()));
      }
    }
    throw new AssertionError("the stream ended without another frame");
  }

  /** Reads until a comment line ({@code : …}) and returns it; frames before it are skipped. */
  String nextComment() {
    while (iterator.hasNext()) {
      String line = iterator.next();
      if (line.startsWith(":")) {
        return line;
      }
    }
    throw new AssertionError("the stream ended without a comment");
  }

  @Override
  public void close() {
    lines.close();
  }
}
