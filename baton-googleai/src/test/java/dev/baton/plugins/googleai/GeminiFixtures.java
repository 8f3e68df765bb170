package dev.baton.plugins.googleai;

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

/** Shared set-up: a Baton instance whose Google AI plugin talks to a {@link FakeHttpServer}. */
final class GeminiFixtures {
  static final String MODEL = "googleai/gemini-2.5-flash";
  static final String KEY = "test-key";

  private GeminiFixtures() {}

  static GoogleAI.Builder plugin(FakeHttpServer server) {
    return plugin(server.baseUrl());
  }

  static GoogleAI.Builder plugin(URI serverUrl) {
    return GoogleAI.builder()
        .apiKey(KEY)
        .baseUrl(serverUrl)
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

  /** The response as JSON without its measured latency, for exact comparison. */
  static JsonNode withoutLatency(ModelResponse response) {
    return Json.withoutField(Json.toTree(response), "latencyMs");
  }
}
