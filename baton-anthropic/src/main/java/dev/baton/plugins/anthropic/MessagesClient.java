package dev.baton.plugins.anthropic;

import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionFunction;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.http.HttpCalls;
import dev.baton.plugins.anthropic.internal.MaxTokens;
import dev.baton.plugins.anthropic.internal.MessagesCall;
import dev.baton.plugins.anthropic.internal.MessagesRequestMapper;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The function behind one {@code anthropic/<model>} action: the Messages API body with the model
 * named in it, posted to {@code /v1/messages} with the key in {@code x-api-key}. Thread-safe: it
 * holds only immutable settings.
 */
final class MessagesClient
    implements ActionFunction<ModelRequest, ModelResponse, ModelResponseChunk> {
  private final String model;
  private final Settings settings;
  private final HttpCalls http;

  /** What every model of one plugin instance shares. */
  record Settings(
      URI endpoint,
      @Nullable String apiKey,
      Map<String, String> headers,
      @Nullable Integer maxTokens) {}

  MessagesClient(String model, Settings settings, HttpCalls http) {
    this.model = model;
    this.settings = settings;
    this.http = http;
  }

  @Override
  public ModelResponse apply(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    String key = settings.apiKey();
    if (key == null) {
      // How this process is set up is none of a remote caller's business.
      throw new BatonException(
          Status.FAILED_PRECONDITION,
          "no Anthropic API key: set ANTHROPIC_API_KEY, or pass one with"
              + " Anthropic.builder().apiKey(...)",
          null,
          false,
          null);
    }
    int maxTokens =
        settings.maxTokens() != null ? settings.maxTokens() : MaxTokens.defaultFor(model);
    ObjectNode body = MessagesRequestMapper.toBody(request, maxTokens).put("model", model);
    return MessagesCall.run(
        context,
        body,
        stream,
        http,
        Anthropic.PROVIDER,
        streaming -> {
          HttpRequest.Builder builder =
              HttpRequest.newBuilder(settings.endpoint())
                  .header("x-api-key", key)
                  .header("anthropic-version", Anthropic.API_VERSION);
          settings.headers().forEach(builder::header);
          return builder;
        });
  }
}
