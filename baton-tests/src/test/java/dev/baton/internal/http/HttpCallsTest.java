package dev.baton.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What HttpCalls reads from a body that the server cuts short. */
class HttpCallsTest {
  private static final String PROVIDER = "Test API";

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();
  private final HttpCalls calls =
      new HttpCalls(
          FakeHttpServer.sharedClient(), Duration.ofSeconds(10), Duration.ofSeconds(10), PROVIDER);
  private final ActionContext context = Baton.builder().build().context();

  /** Reads the stream's events, failing with the provider's error at an error event. */
  private List<String> readEvents(List<String> events) {
    return calls.exchange(
        context,
        HttpRequest.newBuilder(server.baseUrl()).build(),
        body -> {
          SseReader reader = new SseReader(body);
          for (String data = reader.next(); data != null; data = reader.next()) {
            JsonNode event = calls.parseJson(data);
            if (event.has("error")) {
              throw HttpErrors.fromStreamError(PROVIDER, event.path("error"));
            }
            events.add(data);
          }
          return events;
        });
  }

  /**
   * The server writes a chunk and an error event and closes at once. Whether the JDK's own input
   * stream loses them depends on whether the reader drained them before the close was noticed, so
   * the exchange is repeated until a lossy stream would have failed.
   */
  @Test
  void aStreamCutRightAfterAnErrorEventYieldsTheChunkAndTheProvidersError() {
    for (int attempt = 0; attempt < 200; attempt++) {
      server.reply(
          Reply.sse(
                  "{\"text\": \"Hel\"}",
                  "{\"error\": {\"code\": 503, \"message\": \"The model is overloaded.\"}}")
              .thenCut());
      List<String> events = new ArrayList<>();

      assertThatThrownBy(() -> readEvents(events))
          .as("attempt %d", attempt)
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                assertThat(e.getMessage())
                    .isEqualTo(PROVIDER + " failed while streaming: The model is overloaded.");
              });
      assertThat(events).as("attempt %d", attempt).containsExactly("{\"text\": \"Hel\"}");
    }
  }

  @Test
  void aStreamCutShortWithoutAnErrorEventIsUnavailableAfterItsEvents() {
    server.reply(Reply.sse("{\"text\": \"Hel\"}", "{\"text\": \"lo\"}").thenCut());
    List<String> events = new ArrayList<>();

    assertThatThrownBy(() -> readEvents(events))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage()).startsWith("could not reach " + PROVIDER);
            });
    assertThat(events).containsExactly("{\"text\": \"Hel\"}", "{\"text\": \"lo\"}");
  }

  @Test
  void aCompleteStreamReadsToTheEnd() {
    server.reply(Reply.sse("{\"text\": \"Hel\"}", "{\"text\": \"lo\"}"));

    assertThat(readEvents(new ArrayList<>()))
        .containsExactly("{\"text\": \"Hel\"}", "{\"text\": \"lo\"}");
  }
}
