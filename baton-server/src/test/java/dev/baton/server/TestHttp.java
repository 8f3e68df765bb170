package dev.baton.server;

import dev.baton.core.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A plain HTTP client for the tests of the wire protocol's bindings, and readers of what they
 * answer. Public for the bindings' tests in other modules.
 */
public final class TestHttp {
  static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private TestHttp() {}

  /** An answer: its status, content type and body. */
  public record Answer(int status, String contentType, String body) {
    /** The body, parsed. */
    public JsonNode json() {
      return Json.parse(body);
    }

    /** What the route answered: the envelope's {@code result}. */
    public JsonNode result() {
      return json().get("result");
    }

    /** The {@code data:} (or JS-style {@code error:}) frames of an SSE body, parsed. */
    public List<JsonNode> frames() {
      List<JsonNode> frames = new ArrayList<>();
      for (String block : body.split("\n\n")) {
        for (String line : block.split("\n")) {
          if (line.startsWith("data: ")) {
            frames.add(Json.parse(line.substring(6)));
          }
        }
      }
      return frames;
    }

    /** The last frame of an SSE body. */
    public JsonNode lastFrame() {
      List<JsonNode> frames = frames();
      return frames.get(frames.size() - 1);
    }
  }

  /** POSTs {@code body} as JSON with the header name-value pairs given. */
  public static Answer post(URI url, String body, String... headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json");
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    try {
      HttpResponse<String> response =
          CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(
          response.statusCode(),
          response.headers().firstValue("Content-Type").orElse(""),
          response.body());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** POSTs {@code body} as JSON with the header name-value pairs given. */
  public static Answer post(URI url, JsonNode body, String... headers) {
    return post(url, Json.write(body), headers);
  }

  /** {@code {"data": <data>}} with an optional init. */
  public static JsonNode envelope(Object data, Object init) {
    return Json.object()
        .<tools.jackson.databind.node.ObjectNode>set("data", Json.toTree(data))
        .set("init", Json.toTree(init));
  }

  /** {@code {"data": <data>}}. */
  public static JsonNode envelope(Object data) {
    return Json.object().set("data", Json.toTree(data));
  }
}
