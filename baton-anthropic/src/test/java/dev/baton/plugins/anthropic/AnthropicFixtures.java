package dev.baton.plugins.anthropic;

import dev.baton.Baton;
import dev.baton.ai.Model;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.net.URI;
import tools.jackson.databind.JsonNode;

/**
 * Shared set-up: a Baton instance whose Anthropic plugin talks to a {@link FakeHttpServer}, and
 * answers in the Messages API's documented shapes.
 */
final class AnthropicFixtures {
  static final String MODEL = "anthropic/claude-sonnet-4-5";
  static final String KEY = "sk-ant-test-0123456789";

  private AnthropicFixtures() {}

  static Anthropic.Builder plugin(URI serverUrl) {
    return Anthropic.builder()
        .apiKey(KEY)
        .baseUrl(serverUrl)
        .httpClient(FakeHttpServer.sharedClient());
  }

  static Baton baton(FakeHttpServer server) {
    return Baton.builder().plugin(plugin(server.baseUrl()).build()).build();
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

  /** A whole Messages API answer with these content blocks, stop reason and usage. */
  static Reply message(String content, String stopReason, String usage) {
    return Reply.json(
        """
        {"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant",
         "model": "claude-sonnet-4-5-20250929", "content": %s,
         "stop_reason": "%s", "stop_sequence": null, "usage": %s}
        """
            .formatted(content, stopReason, usage));
  }

  /** A whole answer of one text block. */
  static Reply text(String text) {
    return message(
        "[{\"type\": \"text\", \"text\": \"" + text + "\"}]",
        "end_turn",
        "{\"input_tokens\": 10, \"output_tokens\": 5}");
  }

  /**
   * A stream as the API writes it: each payload one event, named by an {@code event:} line after
   * its {@code type}, its JSON on one {@code data:} line.
   */
  static Reply events(String... payloads) {
    String[] frames = new String[payloads.length];
    for (int i = 0; i < payloads.length; i++) {
      JsonNode event = Json.parse(payloads[i]);
      frames[i] =
          "event: " + event.path("type").stringValue() + "\ndata: " + Json.write(event) + "\n\n";
    }
    return Reply.raw(200, "text/event-stream", frames);
  }

  /** The body the server received for request {@code index}, as JSON. */
  static JsonNode body(FakeHttpServer server, int index) {
    return Json.parse(server.request(index).body());
  }

  /** The response as JSON without its measured latency, for exact comparison. */
  static JsonNode withoutLatency(ModelResponse response) {
    return Json.withoutField(Json.toTree(response), "latencyMs");
  }
}
