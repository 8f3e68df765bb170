package dev.baton.plugins.vertexai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.ModelPluginContract;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Cancellation, timeouts and error mapping as every model plugin must do them, through a Gemini
 * model on Vertex AI, and the plugin's own preconditions: a project and credentials.
 */
class VertexAIContractTest extends ModelPluginContract {
  @Override
  protected String model() {
    return VertexFixtures.GEMINI;
  }

  @Override
  protected Baton newBaton(URI serverUrl, Duration timeout, Duration idleTimeout) {
    return VertexFixtures.baton(
        VertexFixtures.plugin(serverUrl).timeout(timeout).idleTimeout(idleTimeout).build());
  }

  @Override
  protected String providerLabel() {
    return "Vertex AI";
  }

  @Override
  protected String textEvent(String text) {
    return "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"" + text + "\"}]}}]}";
  }

  @Override
  protected String errorBody(int httpStatus, String message) {
    return VertexFixtures.googleError(httpStatus, message);
  }

  @Test
  void withoutAProjectEachCallFailsWithFailedPreconditionAndSendsNothing() {
    Baton baton =
        VertexFixtures.baton(
            VertexAI.builder()
                .environment(name -> null)
                .credentials(VertexFixtures.fixedToken())
                .baseUrl(server().baseUrl())
                .httpClient(FakeHttpServer.sharedClient())
                .build());

    BatonException e = failure(baton);

    assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(e.getMessage()).contains("GOOGLE_CLOUD_PROJECT");
    assertThat(e.isPublic()).isFalse();
    assertThat(server().requests()).isEmpty();
  }

  @Test
  void anInvalidModelNameIsRefusedBeforeAnythingIsSent() {
    BatonException e = failure(baton(), "vertexai/../../other");

    assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(server().requests()).isEmpty();
  }

  private static BatonException failure(Baton baton, String model) {
    try {
      VertexFixtures.call(baton, model, HELLO);
    } catch (BatonException e) {
      return e;
    }
    throw new AssertionError("the call succeeded");
  }
}
