package dev.baton.a2a;

import static dev.baton.a2a.ServedA2a.send;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import dev.baton.server.TestHttp;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A graceful shutdown of the A2A handler: new calls are refused, running ones finish. */
class A2aShutdownTest {
  private final ServedA2a served = new ServedA2a().serve();

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void aShutdownRefusesNewCallsAndWaitsForTheRunningOne() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(release).respondText("Done.");
    CompletableFuture<JsonNode> running =
        CompletableFuture.supplyAsync(
            () -> served.result("message/send", send("Research slowly", null, null)));
    entered.await();

    CompletableFuture<Void> shutdown = served.handler().shutdown();
    TestHttp.Answer refused =
        TestHttp.post(
            served.url(),
            Json.object()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "tasks/get")
                .set("params", Json.object().put("id", "t")));

    assertThat(refused.status()).isEqualTo(503);
    assertThat(refused.json().at("/error/code").asInt()).isEqualTo(-32603);
    assertThat(refused.json().at("/error/message").asString()).contains("shutting down");
    assertThat(served.handler().isShutdown()).isTrue();
    assertThat(shutdown).isNotDone();

    release.countDown();
    assertThat(running.get(30, TimeUnit.SECONDS).at("/status/state").asString())
        .isEqualTo("completed");
    shutdown.get(30, TimeUnit.SECONDS);
  }

  @Test
  void aCallThatOutlastsTheGraceIsCancelledWithAJsonRpcError() throws Exception {
    served.close();
    try (ServedA2a impatient =
        new ServedA2a().serve(b -> b.shutdownGrace(java.time.Duration.ZERO))) {
      CountDownLatch entered = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      impatient.model.step().signalOnEntry(entered).blockUntil(release).respondText("late");
      CompletableFuture<JsonNode> running =
          CompletableFuture.supplyAsync(
              () -> impatient.call("message/send", send("Research forever", null, null)));
      entered.await();

      impatient.handler().shutdown().get(30, TimeUnit.SECONDS);

      JsonNode answer = running.get(30, TimeUnit.SECONDS);
      assertThat(answer.at("/error/code").asInt()).isEqualTo(-32603);
      assertThat(answer.at("/error/message").asString()).contains("shutting down");
      // The detached task outlives the request; letting it end spares the close its grace.
      release.countDown();
    }
  }
}
