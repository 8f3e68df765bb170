package dev.baton.devtools;

import dev.baton.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
