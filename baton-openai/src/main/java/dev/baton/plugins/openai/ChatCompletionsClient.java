package dev.baton.plugins.openai;

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
import dev.baton.internal.http.ModelEndpoint;
import dev.baton.internal.http.SseReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The function behind one {@code <namespace>/<model>} action: maps the request, posts it to {@code
 * <baseUrl>/chat/completions}, and maps the answer back.
 *
 * <p>The caller streams when its callback is not {@linkplain StreamCallback#isDiscarding()
 * discarding}. Then every event that adds text or reasoning is passed on as one chunk, in order, on
 * the calling thread; tool calls arrive in fragments, so the assembled tool requests follow as one
 * last chunk when the stream ends. The stream ends at {@code data: [DONE]} or when the server
 * closes it. Thread-safe: it holds only immutable settings.
 */
final class ChatCompletionsClient
    implements ActionFunction<ModelRequest, ModelResponse, ModelResponseChunk> {
  private final String model;
  private final Settings settings;
  private final HttpCalls http;

  /** What every model of one plugin instance shares. */
  record Settings(
      String provider,
      URI endpoint,
      @Nullable String apiKey,
      boolean keyRequired,
      Map<String, String> headers,
      boolean strictJsonSchema,
      String maxTokensField) {}

  ChatCompletionsClient(String model, Settings settings, HttpCalls http) {
    this.model = model;
    this.settings = settings;
    this.http = http;
  }

  @Override
  public ModelResponse apply(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    if (settings.apiKey() == null && settings.keyRequired()) {
      throw BatonException.failedPrecondition(
          "no OpenAI API key: set OPENAI_API_KEY, or pass one with"
              + " OpenAICompatible.builder().apiKey(...)");
    }
    boolean streaming = !stream.isDiscarding();
    byte[] body =
        Json.writeBytes(
            ChatRequestMapper.toRequest(
                model, request, streaming, settings.strictJsonSchema(), settings.maxTokensField()));
    ModelEndpoint endpoint =
        ignored -> {
          HttpRequest.Builder builder = HttpRequest.newBuilder(settings.endpoint());
          if (settings.apiKey() != null) {
            builder.header("Authorization", "Bearer " + settings.apiKey());
          }
          settings.headers().forEach(builder::header);
          return builder;
        };
    long start = System.nanoTime();
    ChatResponseAssembler answer =
        http.exchange(
            context,
            endpoint.post(streaming, body),
            in -> {
              ChatResponseAssembler assembler = new ChatResponseAssembler(settings.provider());
              if (!streaming) {
                assembler.addCompletion(
                    http.parseJson(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
                return assembler;
              }
              SseReader events = new SseReader(in);
              for (String data = events.next();
                  data != null && !data.equals("[DONE]");
                  data = events.next()) {
                List<Part> parts = assembler.addChunk(http.parseJson(data));
                if (!parts.isEmpty()) {
                  stream.onChunk(ModelResponseChunk.of(Role.MODEL, parts));
                }
              }
              List<Part> toolRequests = assembler.toolRequests();
              if (!toolRequests.isEmpty()) {
                stream.onChunk(ModelResponseChunk.of(Role.MODEL, toolRequests));
              }
              return assembler;
            });
    return answer.build((System.nanoTime() - start) / 1_000_000.0);
  }
}
