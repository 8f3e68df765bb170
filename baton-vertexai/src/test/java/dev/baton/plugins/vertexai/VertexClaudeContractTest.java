package dev.baton.plugins.vertexai;

import dev.baton.Baton;
import dev.baton.testing.ModelPluginContract;
import java.net.URI;
import java.time.Duration;

/**
 * Cancellation, timeouts and error mapping as every model plugin must do them, through a Claude
 * model on Vertex AI: the Messages API's stream events, behind Google's front end and its errors.
 */
class VertexClaudeContractTest extends ModelPluginContract {
  @Override
  protected String model() {
    return VertexFixtures.CLAUDE;
  }

  @Override
  protected Baton newBaton(URI serverUrl, Duration timeout, Duration idleTimeout) {
    return VertexFixtures.baton(
        VertexFixtures.plugin(serverUrl).timeout(timeout).idleTimeout(idleTimeout).build());
  }

  @Override
  protected String providerLabel() {
    return VertexAI.PROVIDER;
  }

  @Override
  protected String textEvent(String text) {
    return """
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "%s"}}"""
        .formatted(text);
  }

  @Override
  protected String errorBody(int httpStatus, String message) {
    return VertexFixtures.googleError(httpStatus, message);
  }
}
