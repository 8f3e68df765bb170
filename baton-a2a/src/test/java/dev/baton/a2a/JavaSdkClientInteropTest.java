package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.a2a.A2A;
import io.a2a.client.Client;
import io.a2a.client.ClientEvent;
import io.a2a.client.TaskEvent;
import io.a2a.client.TaskUpdateEvent;
import io.a2a.client.config.ClientConfig;
import io.a2a.client.http.A2ACardResolver;
import io.a2a.client.http.JdkA2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.jsonrpc.JSONRPCTransportConfig;
import io.a2a.spec.AgentCard;
import io.a2a.spec.Artifact;
import io.a2a.spec.EventKind;
import io.a2a.spec.MessageSendConfiguration;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskNotCancelableError;
import io.a2a.spec.TaskNotFoundError;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The A2A Java SDK's client ({@code io.github.a2asdk} 0.3.2.Final) against a Baton agent served
 * over A2A: its card resolver reads the card, its JSON-RPC transport sends, answers an
 * input-required task, gets and cancels, and its streaming client streams a send and resubscribes
 * to a running task.
 */
class JavaSdkClientInteropTest {
  private final ServedA2a served = new ServedA2a().serve();

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  /** The card, which the SDK resolves against the base URL: relative to it, it keeps its path. */
  private AgentCard card() throws Exception {
    return new A2ACardResolver(
            new JdkA2AHttpClient(), served.url() + "/", ".well-known/agent-card.json")
        .getAgentCard();
  }

  @Test
  void theSdkReadsTheCard() throws Exception {
    AgentCard card = card();

    assertThat(card.name()).isEqualTo("researcher");
    assertThat(card.url()).isEqualTo(served.url().toString());
    assertThat(card.protocolVersion()).isEqualTo("0.3.0");
    assertThat(card.capabilities().streaming()).isTrue();
  }

  @Test
  void sendIsACompletedTaskThatGetReadsAgain() throws Exception {
    served.model.respondText("It needs sorted input.");
    JSONRPCTransport transport = new JSONRPCTransport(card());

    EventKind sent =
        transport.sendMessage(
            new MessageSendParams.Builder()
                .message(A2A.toUserMessage("What limits binary search?"))
                .build(),
            null);

    assertThat(sent).isInstanceOf(Task.class);
    Task task = (Task) sent;
    assertThat(task.getStatus().state()).isEqualTo(TaskState.COMPLETED);
    assertThat(((TextPart) task.getStatus().message().getParts().getFirst()).getText())
        .isEqualTo("It needs sorted input.");
    Task got = transport.getTask(new TaskQueryParams(task.getId()), null);
    assertThat(got.getContextId()).isEqualTo(task.getContextId());
    assertThat(got.getStatus().state()).isEqualTo(TaskState.COMPLETED);
  }

  @Test
  void anInputRequiredTaskIsAnsweredUnderItsOwnId() throws Exception {
    served.modelAsksForApproval();
    served.model.respondText("Published.");
    JSONRPCTransport transport = new JSONRPCTransport(card());
    Task asked =
        (Task)
            transport.sendMessage(
                new MessageSendParams.Builder()
                    .message(A2A.toUserMessage("Publish the notes"))
                    .build(),
                null);
    assertThat(asked.getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);

    Task done =
        (Task)
            transport.sendMessage(
                new MessageSendParams.Builder()
                    .message(A2A.createUserTextMessage("yes", asked.getContextId(), asked.getId()))
                    .build(),
                null);

    assertThat(done.getId()).isEqualTo(asked.getId());
    assertThat(done.getStatus().state()).isEqualTo(TaskState.COMPLETED);
    assertThat(((TextPart) done.getStatus().message().getParts().getFirst()).getText())
        .isEqualTo("Published.");
    assertThat(transport.getTask(new TaskQueryParams(asked.getId()), null).getStatus().state())
        .isEqualTo(TaskState.COMPLETED);
  }

  @Test
  void anUnknownTaskAndAFinishedTasksCancelAreTheSdksErrors() throws Exception {
    served.model.respondText("Done.");
    JSONRPCTransport transport = new JSONRPCTransport(card());
    Task task =
        (Task)
            transport.sendMessage(
                new MessageSendParams.Builder().message(A2A.toUserMessage("Go")).build(), null);

    assertThatThrownBy(() -> transport.getTask(new TaskQueryParams("no-such-task"), null))
        .hasCauseInstanceOf(TaskNotFoundError.class);
    assertThatThrownBy(() -> transport.cancelTask(new TaskIdParams(task.getId()), null))
        .hasCauseInstanceOf(TaskNotCancelableError.class);
  }

  @Test
  void aStreamCarriesTheRunningTaskToItsCompletedStatus() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    served
        .model
        .step()
        .blockUntil(release)
        .respond(ServedA2a.writesNote("notes.md", "Sorted input only."));
    served.model.respondText("It needs sorted input.");
    Events events = new Events(release);

    Client client = streamingClient();
    try {
      client.sendMessage(
          A2A.toUserMessage("What limits binary search?"), List.of(events), events::fail, null);
      Task completed = events.finished();

      assertThat(events.first().getStatus().state()).isIn(TaskState.SUBMITTED, TaskState.WORKING);
      assertThat(completed.getId()).isEqualTo(events.first().getId());
      assertThat(completed.getStatus().state()).isEqualTo(TaskState.COMPLETED);
      assertThat(text(completed)).isEqualTo("It needs sorted input.");
      events.assertOneTaskWithOneFinalEvent();
      // The note the agent wrote is one whole artifact on the stream, and the task keeps it.
      List<TaskArtifactUpdateEvent> artifactUpdates = events.artifactUpdates();
      assertThat(artifactUpdates).hasSize(1);
      TaskArtifactUpdateEvent update = artifactUpdates.getFirst();
      assertThat(update.getTaskId()).isEqualTo(completed.getId());
      assertThat(update.isLastChunk()).isTrue();
      assertThat(update.isAppend()).isNotEqualTo(Boolean.TRUE);
      Artifact streamed = update.getArtifact();
      assertThat(streamed.artifactId()).isNotBlank();
      assertThat(streamed.name()).isEqualTo("notes.md");
      assertThat(text(streamed)).isEqualTo("Sorted input only.");
      Task got = client.getTask(new TaskQueryParams(completed.getId()), null);
      assertThat(got.getArtifacts()).hasSize(1);
      Artifact kept = got.getArtifacts().getFirst();
      assertThat(kept.artifactId()).isEqualTo(streamed.artifactId());
      assertThat(kept.name()).isEqualTo("notes.md");
      assertThat(text(kept)).isEqualTo("Sorted input only.");
    } finally {
      client.close();
      release.countDown();
    }
  }

  @Test
  void aResubscriptionToARunningTaskSeesItComplete() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().blockUntil(release).respondText("Done researching.");
    JSONRPCTransport transport = new JSONRPCTransport(card());
    Events events = new Events(release);

    Client client = streamingClient();
    try {
      Task started = startDetached(transport, "Research slowly");
      client.resubscribe(new TaskIdParams(started.getId()), List.of(events), events::fail, null);
      Task completed = events.finished();

      assertThat(started.getStatus().state()).isIn(TaskState.SUBMITTED, TaskState.WORKING);
      assertThat(events.first().getId()).isEqualTo(started.getId());
      assertThat(events.first().getStatus().state()).isIn(TaskState.SUBMITTED, TaskState.WORKING);
      assertThat(completed.getStatus().state()).isEqualTo(TaskState.COMPLETED);
      assertThat(text(completed)).isEqualTo("Done researching.");
      events.assertOneTaskWithOneFinalEvent();
      assertThat(transport.getTask(new TaskQueryParams(started.getId()), null).getStatus().state())
          .isEqualTo(TaskState.COMPLETED);
    } finally {
      client.close();
      release.countDown();
    }
  }

  @Test
  void cancelOfARunningTaskCancelsIt() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(release).respondText("unreached");
    JSONRPCTransport transport = new JSONRPCTransport(card());
    try {
      Task started = startDetached(transport, "Research forever");
      entered.await();

      Task canceled = transport.cancelTask(new TaskIdParams(started.getId()), null);

      assertThat(started.getStatus().state()).isIn(TaskState.SUBMITTED, TaskState.WORKING);
      assertThat(canceled.getId()).isEqualTo(started.getId());
      assertThat(canceled.getStatus().state()).isEqualTo(TaskState.CANCELED);
      Task got = transport.getTask(new TaskQueryParams(started.getId()), null);
      assertThat(got.getStatus().state()).isEqualTo(TaskState.CANCELED);
    } finally {
      release.countDown();
    }
  }

  /** The SDK's client over JSON-RPC, streaming: the card declares streaming, so it streams. */
  private Client streamingClient() throws Exception {
    return Client.builder(card())
        .clientConfig(new ClientConfig.Builder().setStreaming(true).build())
        .withTransport(JSONRPCTransport.class, new JSONRPCTransportConfig())
        .build();
  }

  /** Sends a message with {@code blocking: false}: the answer is the task, still running. */
  private static Task startDetached(JSONRPCTransport transport, String text) throws Exception {
    EventKind sent =
        transport.sendMessage(
            new MessageSendParams.Builder()
                .message(A2A.toUserMessage(text))
                .configuration(new MessageSendConfiguration.Builder().blocking(false).build())
                .build(),
            null);
    assertThat(sent).isInstanceOf(Task.class);
    return (Task) sent;
  }

  private static String text(Task task) {
    return ((TextPart) task.getStatus().message().getParts().getFirst()).getText();
  }

  private static String text(Artifact artifact) {
    assertThat(artifact.parts()).hasSize(1);
    return ((TextPart) artifact.parts().getFirst()).getText();
  }

  /**
   * What a streaming call delivered to its consumer, in order. The first event opens the gate the
   * model's step waits on, so the stream is seen to begin while the task still runs.
   */
  private static final class Events implements BiConsumer<ClientEvent, AgentCard> {
    private final CountDownLatch gate;
    private final List<ClientEvent> received = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Task> finished = new CompletableFuture<>();

    Events(CountDownLatch gate) {
      this.gate = gate;
    }

    @Override
    public void accept(ClientEvent event, AgentCard card) {
      received.add(event);
      gate.countDown();
      if (isFinal(event)) {
        finished.complete(task(event));
      }
    }

    void fail(Throwable failure) {
      finished.completeExceptionally(failure);
    }

    /** The task as the final status update leaves it. */
    Task finished() throws Exception {
      return finished.get(1, TimeUnit.MINUTES);
    }

    /** The artifact updates received, in order. */
    List<TaskArtifactUpdateEvent> artifactUpdates() {
      return received.stream()
          .filter(
              event ->
                  event instanceof TaskUpdateEvent update
                      && update.getUpdateEvent() instanceof TaskArtifactUpdateEvent)
          .map(event -> (TaskArtifactUpdateEvent) ((TaskUpdateEvent) event).getUpdateEvent())
          .toList();
    }

    /** The task as the first event left it, whether the stream opened with it or an update. */
    Task first() {
      return task(received.getFirst());
    }

    /** Every event is of the one task, and only the last is a final status. */
    void assertOneTaskWithOneFinalEvent() {
      String id = first().getId();
      for (ClientEvent event : received) {
        assertThat(task(event).getId()).isEqualTo(id);
        assertThat(isFinal(event)).as("final: %s", event).isEqualTo(event == received.getLast());
      }
    }

    private static boolean isFinal(ClientEvent event) {
      return event instanceof TaskUpdateEvent update
          && update.getUpdateEvent() instanceof TaskStatusUpdateEvent status
          && status.isFinal();
    }

    private static Task task(ClientEvent event) {
      return switch (event) {
        case TaskEvent task -> task.getTask();
        case TaskUpdateEvent update -> update.getTask();
        default -> throw new AssertionError("not an event of a task: " + event);
      };
    }
  }
}
