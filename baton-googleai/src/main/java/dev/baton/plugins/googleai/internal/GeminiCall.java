package dev.baton.plugins.googleai.internal;

import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.ModelEndpoint;
import dev.baton.internal.http.SseReader;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One model call in Gemini's {@code generateContent} wire: maps the request, posts it, and maps the
 * answer (whole, or {@code streamGenerateContent}'s SSE events) back.
 *
 * <p>The call streams when the caller's callback is not {@linkplain StreamCallback#isDiscarding()
 * discarding}; every SSE event that carries parts is passed on as one chunk, in order, on the
 * calling thread. The endpoint's {@code request(streaming)} is the model's {@code :generateContent}
 * method, or {@code :streamGenerateContent?alt=sse} when streaming. Stateless and thread-safe.
 */
public final class GeminiCall {
  private GeminiCall() {}

  /** Sends {@code request} in Gemini's shape and reads the answer. */
  public static ModelResponse run(
      ActionContext context,
      ModelRequest request,
      StreamCallback<ModelResponseChunk> stream,
      HttpCalls http,
      String provider,
      ModelEndpoint endpoint) {
    boolean streaming = !stream.isDiscarding();
    HttpRequest httpRequest =
        endpoint.post(streaming, Json.writeBytes(GeminiRequestMapper.toRequest(request)));
    long start = System.nanoTime();
    GeminiResponseAssembler answer =
        http.exchange(
            context,
            httpRequest,
            body -> {
              GeminiResponseAssembler assembler = new GeminiResponseAssembler(provider);
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
}
