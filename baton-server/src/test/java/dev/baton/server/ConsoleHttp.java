package dev.baton.server;

import dev.baton.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The HTTP calls of the console's tests: reads, the abort, and the live event stream. Public for
 * the console's tests in other modules.
 */
public final class ConsoleHttp {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private ConsoleHttp() {}

  /** An answer: its status, headers and body. */
  public record Answer(int status, java.net.http.HttpHeaders headers, String body) {
    public JsonNode json() {
      return Json.parse(body);
    }

    public String header(String name) {
      return headers.firstValue(name).orElse("");
    }

    /** The Genkit status of an error answer. */
    public String errorStatus() {
      return json().at("/error/status").asString();
    }
  }

  public static Answer get(URI url, String... headers) {
    return send(HttpRequest.newBuilder(url).GET(), headers);
  }

  public static Answer head(URI url, String... headers) {
    return send(HttpRequest.newBuilder(url).HEAD(), headers);
  }

  public static Answer post(URI url, String body, String... headers) {
    return send(
        HttpRequest.newBuilder(url).POST(HttpRequest.BodyPublishers.ofString(body)), headers);
  }

  private static Answer send(HttpRequest.Builder request, String... headers) {
    request.timeout(Duration.ofSeconds(30));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    try {
      HttpResponse<String> response =
          CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.headers(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The console's event stream, read on a thread of its own: each {@code event: status} frame's
   * data is queued for {@link #sent}. Closing it ends the connection.
   */
  public static final class Events implements AutoCloseable {
    private final LinkedBlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
    private final List<JsonNode> all = new CopyOnWriteArrayList<>();
    private final Stream<String> lines;
    private final Thread reader;

    public Events(URI url, String... headers) {
      HttpRequest.Builder request = HttpRequest.newBuilder(url).GET();
      for (int i = 0; i < headers.length; i += 2) {
        request.header(headers[i], headers[i + 1]);
      }
      HttpResponse<Stream<String>> response;
      try {
        response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofLines());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      if (response.statusCode() != 200
          || !response
              .headers()
              .firstValue("Content-Type")
              .orElse("")
              .startsWith("text/event-stream")) {
        throw new IllegalStateException("not an event stream: " + response.statusCode());
      }
      this.lines = response.body();
      this.reader =
          Thread.ofVirtual()
              .start(
                  () -> {
                    String event = null;
                    try {
                      for (String line : (Iterable<String>) lines::iterator) {
                        if (line.startsWith("event: ")) {
                          event = line.substring(7);
                        } else if (line.startsWith("data: ") && "status".equals(event)) {
                          JsonNode data = Json.parse(line.substring(6));
                          all.add(data);
                          events.add(data);
                        } else if (line.isEmpty()) {
                          event = null;
                        }
                      }
                    } catch (UncheckedIOException closed) {
                      // The test closed the stream.
                    }
                  });
    }

    /** Whether the stream has sent this status for this snapshot (taking the events up to it). */
    public boolean sent(String snapshotId, String status) {
      for (JsonNode event = events.poll(); event != null; event = events.poll()) {
        if (event.path("snapshotId").asString().equals(snapshotId)
            && event.path("status").asString().equals(status)) {
          return true;
        }
      }
      return false;
    }

    /** The snapshot IDs of every status frame the stream has sent so far. */
    public List<String> snapshotIds() {
      return all.stream().map(event -> event.path("snapshotId").asString()).toList();
    }

    @Override
    public void close() {
      lines.close();
      reader.interrupt();
    }
  }
}
