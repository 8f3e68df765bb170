package dev.baton.plugins.googleai;

import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionFunction;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.SseReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The function behind one {@code googleai/<model>} action: maps the request, calls {@code
 * generateContent} (or {@code streamGenerateContent?alt=sse} when the caller streams), and maps the
 * answer back.
 *
 * <p>The caller streams when its callback is not {@linkplain StreamCallback#isDiscarding()
 * discarding}; every SSE event that carries parts is passed on as one chunk, in order, on the
 * calling thread. Thread-safe: it holds only immutable settings.
 */
final class GeminiClient
    implements ActionFunction<ModelRequest, ModelResponse, ModelResponseChunk> {
  private final String model;
  private final @Nullable String apiKey;
  private final String endpoint;
  private final HttpCalls http;

  /**
   * @param endpoint the base URL with the API version, without a trailing slash
   */
  GeminiClient(String model, @Nullable String apiKey, String endpoint, HttpCalls http) {
    this.model = model;
    this.apiKey = apiKey;
    this.endpoint = endpoint;
    this.http = http;
  }

  @Override
  public ModelResponse apply(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    String key = apiKey;
    if (key == null) {
      throw BatonException.failedPrecondition(
          "no Gemini API key: set GEMINI_API_KEY or GOOGLE_API_KEY, or pass one with"
              + " GoogleAI.builder().apiKey(...)");
    }
    boolean streaming = !stream.isDiscarding();
    HttpRequest httpRequest =
        HttpRequest.newBuilder(uri(streaming))
            .header("Content-Type", "application/json")
            .header("Accept", streaming ? "text/event-stream" : "application/json")
            .header("x-goog-api-key", key)
            .POST(
                HttpRequest.BodyPublishers.ofByteArray(
                    Json.writeBytes(GeminiRequestMapper.toRequest(request))))
            .build();
    long start = System.nanoTime();
    GeminiResponseAssembler answer =
        http.exchange(
            context,
            httpRequest,
            body -> {
              GeminiResponseAssembler assembler = new GeminiResponseAssembler();
              if (!streaming) {
                assembler.add(
                    http.parseJson(new String(body.readAllBytes(), StandardCharsets.UTF_8)));
                return assembler;
              }
              SseReader events = new SseReader(body);
              for (String data = events.next(); data != null; data = events.next()) {
                List<Part> parts = assembler.add(http.parseJson(data));
                if (!parts.isEmpty()) {
                  stream.onChunk(ModelResponseChunk.of(Role.MODEL, parts));
                }
              }
              return assembler;
            });
    return answer.build((System.nanoTime() - start) / 1_000_000.0);
  }

  private URI uri(boolean streaming) {
    String method = streaming ? ":streamGenerateContent?alt=sse" : ":generateContent";
    return URI.create(endpoint + "/models/" + model + method);
  }
}
