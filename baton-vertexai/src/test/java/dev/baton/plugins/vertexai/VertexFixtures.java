package dev.baton.plugins.vertexai;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.baton.Baton;
import dev.baton.ai.Message;
import dev.baton.ai.Model;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer;
import java.net.URI;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Shared set-up: a Baton instance whose Vertex AI plugin talks to a {@link FakeHttpServer} for
 * project {@value #PROJECT} in {@value #LOCATION}, with a fixed access token.
 */
final class VertexFixtures {
  static final String PROJECT = "my-project";
  static final String LOCATION = "us-central1";
  static final String GEMINI = "vertexai/gemini-2.5-flash";
  static final String CLAUDE = "vertexai/claude-sonnet-4-5@20250929";
  static final String TOKEN = "ya29.fixed-test-token";
  static final String MODELS = "/v1/projects/my-project/locations/us-central1/publishers/";
  static final ModelRequest HELLO = ModelRequest.of(List.of(Message.user("Hello")));

  private VertexFixtures() {}

  /** Credentials whose token never expires, so nothing is fetched. */
  static GoogleCredentials fixedToken() {
    return GoogleCredentials.create(
        new AccessToken(TOKEN, Date.from(Instant.now().plusSeconds(24 * 3600))));
  }

  static VertexAI.Builder plugin(URI serverUrl) {
    return VertexAI.builder()
        .project(PROJECT)
        .location(LOCATION)
        .credentials(fixedToken())
        .baseUrl(serverUrl)
        .httpClient(FakeHttpServer.sharedClient());
  }

  static Baton baton(VertexAI plugin) {
    return Baton.builder().plugin(plugin).build();
  }

  static ModelResponse call(Baton baton, String model, ModelRequest request) {
    return call(baton, model, request, StreamCallback.discard());
  }

  static ModelResponse call(
      Baton baton, String model, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    ActionContext context = baton.context();
    return Model.lookup(baton.registry(), model).run(context, request, stream);
  }

  /** A whole Gemini answer of one text part. */
  static String geminiText(String text) {
    return """
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "%s"}]},
          "finishReason": "STOP"}],
         "usageMetadata": {"promptTokenCount": 4, "candidatesTokenCount": 2, "totalTokenCount": 6},
         "modelVersion": "gemini-2.5-flash"}"""
        .formatted(text);
  }

  /** A whole Messages API answer of one text block. */
  static String claudeText(String text) {
    return """
        {"id": "msg_vrtx_01", "type": "message", "role": "assistant",
         "model": "claude-sonnet-4-5-20250929", "content": [{"type": "text", "text": "%s"}],
         "stop_reason": "end_turn", "stop_sequence": null,
         "usage": {"input_tokens": 10, "output_tokens": 5}}"""
        .formatted(text);
  }

  /** The body the server received for request {@code index}, as JSON. */
  static JsonNode body(FakeHttpServer server, int index) {
    return Json.parse(server.request(index).body());
  }

  /** A Google error, with the canonical status name Google pairs with the HTTP code. */
  static String googleError(int httpStatus, String message) {
    String status =
        switch (httpStatus) {
          case 400 -> "INVALID_ARGUMENT";
          case 401 -> "UNAUTHENTICATED";
          case 403 -> "PERMISSION_DENIED";
          case 404 -> "NOT_FOUND";
          case 429 -> "RESOURCE_EXHAUSTED";
          case 500 -> "INTERNAL";
          case 503 -> "UNAVAILABLE";
          default -> "UNKNOWN";
        };
    return """
        {"error": {"code": %d, "message": "%s", "status": "%s"}}"""
        .formatted(httpStatus, message, status);
  }
}
