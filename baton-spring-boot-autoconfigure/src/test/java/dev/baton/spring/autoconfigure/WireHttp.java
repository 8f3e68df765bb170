package dev.baton.spring.autoconfigure;

import dev.baton.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A plain HTTP client for the served routes, and readers of their answers. */
final class WireHttp {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private WireHttp() {}

  /** An answer: its status, content type and body. */
  record Answer(int status, String contentType, String body) {
    JsonNode json() {
      return Json.parse(body);
    }

    /** What the route answered: the envelope's {@code result}. */
    JsonNode result() {
      return json().get("result");
    }

    /** The {@code data:} frames of an SSE body, parsed. */
    List<JsonNode> frames() {
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
  }

  /** POSTs {@code body} as JSON with the header name-value pairs given. */
  static Answer post(URI url, JsonNode body, String... headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)))
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
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code {"data": <data>}}. */
  static JsonNode envelope(Object data) {
    return Json.object().set("data", Json.toTree(data));
  }

  /** {@code {"data": <data>, "init": <init>}}. */
  static JsonNode envelope(Object data, Object init) {
    return ((ObjectNode) envelope(data)).set("init", Json.toTree(init));
  }

  /** The header pair of HTTP Basic credentials. */
  static String[] basic(String user, String password) {
    String token =
        Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return new String[] {"Authorization", "Basic " + token};
  }
}
