package dev.baton.devtools;

import dev.baton.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** Calls a reflection API as the Genkit CLI does. Thread-safe. */
final class ReflectionClient {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private final URI base;

  ReflectionClient(URI base) {
    this.base = base;
  }

  HttpResponse<String> get(String pathAndQuery) {
    return send(
        HttpRequest.newBuilder(base.resolve(pathAndQuery)).GET(),
        HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String path, JsonNode body) {
    return send(post(path, Json.write(body)), HttpResponse.BodyHandlers.ofString());
  }

  /** Posts a body as the given content type (none when null), as a web page might. */
  HttpResponse<String> post(String path, @Nullable String contentType, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    return send(request, HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Sends a request written out in full, headers included, over a socket of its own (the JDK's
   * client sets {@code Host} itself), and returns the response's status code.
   */
  int raw(String request) {
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      // "HTTP/1.1 403 Forbidden"
      return Integer.parseInt(response.split(" ", 3)[1]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Posts and returns as soon as the headers arrive; the body streams. */
  HttpResponse<InputStream> postStreaming(String path, JsonNode body) {
    return send(post(path, Json.write(body)), HttpResponse.BodyHandlers.ofInputStream());
  }

  JsonNode json(HttpResponse<String> response) {
    return Json.parse(response.body());
  }

  static String readAll(HttpResponse<InputStream> response) {
    try (InputStream in = response.body()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private HttpRequest.Builder post(String path, String body) {
    return HttpRequest.newBuilder(base.resolve(path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  private static <T> HttpResponse<T> send(
      HttpRequest.Builder request, HttpResponse.BodyHandler<T> handler) {
    try {
      return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), handler);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
