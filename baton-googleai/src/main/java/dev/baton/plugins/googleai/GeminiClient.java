package dev.baton.plugins.googleai;

import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionFunction;
import dev.baton.core.BatonException;
import dev.baton.core.StreamCallback;
import dev.baton.internal.http.HttpCalls;
import dev.baton.plugins.googleai.internal.GeminiCall;
import java.net.URI;
import java.net.http.HttpRequest;
import org.jspecify.annotations.Nullable;

/**
 * The function behind one {@code googleai/<model>} action: {@link GeminiCall} against {@code
 * <endpoint>/models/<model>}, with the key in {@code x-goog-api-key}. Thread-safe: it holds only
 * immutable settings.
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
    return GeminiCall.run(
        context,
        request,
        stream,
        http,
        GoogleAI.PROVIDER,
        streaming -> HttpRequest.newBuilder(uri(streaming)).header("x-goog-api-key", key));
  }

  private URI uri(boolean streaming) {
    String method = streaming ? ":streamGenerateContent?alt=sse" : ":generateContent";
    return URI.create(endpoint + "/models/" + model + method);
  }
}
