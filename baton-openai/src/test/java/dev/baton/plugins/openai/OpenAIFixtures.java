package dev.baton.plugins.openai;

import dev.baton.Baton;
import dev.baton.ai.Model;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer;
import java.net.URI;
import tools.jackson.databind.JsonNode;

/**
 * Shared set-up: a Baton instance whose OpenAI-compatible plugin talks to a {@link FakeHttpServer}.
 */
final class OpenAIFixtures {
  static final String MODEL = "openai/gpt-4o-mini";
  static final String KEY = "sk-test";

  private OpenAIFixtures() {}

  static OpenAICompatible.Builder plugin(FakeHttpServer server) {
    return plugin(server.baseUrl());
  }

  static OpenAICompatible.Builder plugin(URI serverUrl) {
    return OpenAICompatible.builder()
        .baseUrl(serverUrl.resolve("/v1"))
        .apiKey(KEY)
        .httpClient(FakeHttpServer.sharedClient());
  }

  static Baton baton(FakeHttpServer server) {
    return Baton.builder().plugin(plugin(server).build()).build();
  }

  static ModelResponse call(Baton baton, ModelRequest request) {
    return call(baton, baton.context(), request, StreamCallback.discard());
  }

  static ModelResponse call(
      Baton baton,
      ActionContext context,
      ModelRequest request,
      StreamCallback<ModelResponseChunk> stream) {
    return Model.lookup(baton.registry(), MODEL).run(context, request, stream);
  }

  /** A chat completion answering with one assistant message. */
  static String completion(String message, String finishReason, String usage) {
    return """
        {"id": "chatcmpl-1", "object": "chat.completion", "created": 1741569952,
         "model": "gpt-4o-mini-2024-07-18",
         "choices": [{"index": 0, "message": %s, "logprobs": null, "finish_reason": "%s"}],
         "usage": %s}
        """
        .formatted(message, finishReason, usage);
  }

  /** The response as JSON without its measured latency, for exact comparison. */
  static JsonNode withoutLatency(ModelResponse response) {
    return Json.withoutField(Json.toTree(response), "latencyMs");
  }
}
