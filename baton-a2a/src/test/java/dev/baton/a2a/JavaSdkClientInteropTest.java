package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.a2a.A2A;
import io.a2a.client.http.A2ACardResolver;
import io.a2a.client.http.JdkA2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.spec.AgentCard;
import io.a2a.spec.EventKind;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.Task;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskNotCancelableError;
import io.a2a.spec.TaskNotFoundError;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import io.a2a.spec.TextPart;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The A2A Java SDK's client ({@code io.github.a2asdk} 0.3.2.Final) against a Baton agent served
 * over A2A: its card resolver reads the card, and its JSON-RPC transport sends, answers an
 * input-required task and gets.
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
}
