package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.Artifact;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.core.Json;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A Baton orchestrator delegating to a Baton agent that another Baton instance serves over A2A:
 * {@link A2aAgents#define} against {@link A2aHandler}, end to end, with both sides' programmable
 * models answering.
 */
class BatonToBatonA2aTest {
  private static final String RESUBSCRIBE = "tasks/resubscribe";

  /** The JSON-RPC methods the served agent was called with, in order. */
  private final List<String> methods = new CopyOnWriteArrayList<>();

  /** Opened when a {@code tasks/resubscribe} reaches the server. */
  private final CountDownLatch resubscribed = new CountDownLatch(1);

  private final ServedA2a served = new ServedA2a().serve(b -> b, MethodSpy::new);
  private final Baton client = Baton.builder().experimental().build();

  // Waits poll only every minute: a wait that ends sooner has followed the task's stream.
  private final Agent researcher =
      A2aAgents.define(
          client,
          "researcher",
          URI.create(served.url() + "/.well-known/agent-card.json"),
          A2aAgentOptions.builder().waitPollInterval(Duration.ofMinutes(1)).build());
  private final ScriptedOrchestrator orchestrator = new ScriptedOrchestrator(client, researcher);

  @AfterEach
  void close() throws Exception {
    client.close();
    served.close();
  }

  @Test
  void aSynchronousDelegationAnswersAndIsContinuedInTheSameContext() {
    served.model.respondText("Tides follow the moon.").respondText("Storms follow fronts.");
    orchestrator.delegate("Why tides?").continueTask("And storms?");

    assertThat(orchestrator.run("Why tides and storms?").text()).isEqualTo("done");

    JsonNode first = orchestrator.output(0);
    JsonNode second = orchestrator.output(1);
    assertThat(first.get("status").stringValue()).isEqualTo("completed");
    assertThat(first.get("response").stringValue()).isEqualTo("Tides follow the moon.");
    assertThat(second.get("status").stringValue()).isEqualTo("completed");
    assertThat(second.get("response").stringValue()).isEqualTo("Storms follow fronts.");
    // The continuation is a new task in the first one's context: the served session holds both.
    assertThat(taskId(second)).isNotEqualTo(taskId(first));
    assertThat(servedTask(second).path("contextId").asString())
        .isEqualTo(servedTask(first).path("contextId").asString());
    assertThat(served.model.lastRequest().messages())
        .extracting(Message::text)
        .contains("Why tides?", "Tides follow the moon.", "And storms?");
  }

  @Test
  void aBackgroundDelegationIsWaitedForOnTheTasksStream() {
    // The researcher's step ends only once the client follows the task's stream, so the wait can
    // only see it settle there (a poll would come a minute later).
    served.model.step().blockUntil(resubscribed).respondText("Storms follow fronts.");
    orchestrator
        .delegateInBackground("Why storms?")
        .onTask("check_background_tasks")
        .then(checked -> ScriptedOrchestrator.call("wait_for_background_tasks", waitInput()));

    orchestrator.run("Why storms?");

    assertThat(orchestrator.output(0).get("status").stringValue()).isEqualTo("pending");
    assertThat(orchestrator.output(1).at("/tasks/0/status").stringValue()).isEqualTo("pending");
    JsonNode waited = orchestrator.output(2);
    assertThat(waited.at("/tasks/0/status").stringValue()).isEqualTo("completed");
    assertThat(waited.at("/tasks/0/response").stringValue()).isEqualTo("Storms follow fronts.");
    // The wait read the task, followed its stream until it settled, and read it once more.
    assertThat(methods.subList(methods.indexOf(RESUBSCRIBE) - 1, methods.size()))
        .containsExactly("tasks/get", RESUBSCRIBE, "tasks/get");
  }

  /** The wait's input: the task the delegation launched, its output the first one kept. */
  private JsonNode waitInput() {
    return ScriptedOrchestrator.taskIds(orchestrator.output(0));
  }

  @Test
  void anAbortedBackgroundTaskIsCanceledOnTheServer() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(never).respondText("unreached");
    orchestrator
        .delegateInBackground("Why storms?")
        .then(
            launched -> {
              awaitUninterruptibly(entered);
              return ScriptedOrchestrator.call(
                  "abort_background_tasks", ScriptedOrchestrator.taskIds(launched));
            });

    orchestrator.run("Why storms?");

    assertThat(orchestrator.output(1).at("/tasks/0/status").stringValue()).isEqualTo("aborted");
    assertThat(servedTask(orchestrator.output(0)).at("/status/state").asString())
        .isEqualTo("canceled");
    assertThat(methods).contains("tasks/cancel");
  }

  @Test
  void theServedAgentsQuestionIsAnsweredByContinuingItsTask() {
    served.modelAsksForApproval();
    served.model.respondText("Published.");
    orchestrator.delegate("Publish the notes").continueTask("yes");

    orchestrator.run("Publish the notes");

    JsonNode asked = orchestrator.output(0);
    JsonNode answered = orchestrator.output(1);
    // input-required reads as completed, the question (the interrupt's data, as JSON) its answer
    // ...
    assertThat(asked.get("status").stringValue()).isEqualTo("completed");
    assertThat(Json.parse(asked.get("response").stringValue()).at("/interrupt/data/question"))
        .isEqualTo(Json.toTree("May I proceed?"));
    // ... and the continuation answers it in the same task, which the served tool receives.
    assertThat(taskId(answered)).isEqualTo(taskId(asked));
    assertThat(answered.get("status").stringValue()).isEqualTo("completed");
    assertThat(answered.get("response").stringValue()).isEqualTo("Published.");
    assertThat(servedTask(answered).at("/status/state").asString()).isEqualTo("completed");
    ModelRequest resumed = served.model.lastRequest();
    Message toolAnswer = resumed.messages().get(resumed.messages().size() - 1);
    assertThat(toolAnswer.toolResponses().get(0).toolResponse().output().asString())
        .isEqualTo("yes");
  }

  @Test
  void theServedAgentsArtifactsReachTheOrchestratorsSession() {
    served.model.respond(ServedA2a.writesNote("notes.md", "The moon pulls the sea."));
    served.model.respondText("Notes written.");
    orchestrator.delegate("Why tides?");

    AgentOutput output = orchestrator.run("Why tides?");

    JsonNode delegated = orchestrator.output(0);
    assertThat(delegated.get("response").stringValue()).isEqualTo("Notes written.");
    assertThat(delegated.at("/artifacts/0/content").stringValue())
        .isEqualTo("The moon pulls the sea.");
    Artifact merged = output.artifacts().get(0);
    assertThat(merged.name()).isEqualTo(delegated.at("/artifacts/0/name").stringValue());
    assertThat(merged.name()).endsWith("notes.md");
    assertThat(merged.text()).isEqualTo("The moon pulls the sea.");
    assertThat(merged.metadata().path("source").asString()).isEqualTo("researcher");
  }

  /** The A2A task a delegation's output names, as the server reads it. */
  private JsonNode servedTask(JsonNode output) {
    String a2aTaskId = taskId(output).substring("researcher:".length());
    return served.result("tasks/get", Json.object().put("id", a2aTaskId));
  }

  private static String taskId(JsonNode output) {
    return ScriptedOrchestrator.taskId(output);
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Notes each JSON-RPC request's method before the A2A handler takes it, and opens {@link
   * #resubscribed} at a {@code tasks/resubscribe}: it reads the body and hands the handler a
   * request that reads it again.
   */
  private final class MethodSpy extends Handler.Wrapper {
    MethodSpy(Handler handler) {
      super(handler);
    }

    // Reading the body blocks, which Jetty allows only of a handler that says so.
    @Override
    public InvocationType getInvocationType() {
      return InvocationType.BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      if (!"POST".equals(request.getMethod())) {
        return super.handle(request, response, callback);
      }
      ByteBuffer body = Content.Source.asByteBuffer(request);
      String method =
          Json.parse(StandardCharsets.UTF_8.decode(body.duplicate()).toString())
              .path("method")
              .asString();
      methods.add(method);
      if (RESUBSCRIBE.equals(method)) {
        resubscribed.countDown();
      }
      return super.handle(new Replay(request, body), response, callback);
    }
  }

  /** A request whose body, already read, reads once more. */
  private static final class Replay extends Request.Wrapper {
    private Content.Chunk body;

    Replay(Request request, ByteBuffer body) {
      super(request);
      this.body = Content.Chunk.from(body, true);
    }

    @Override
    public synchronized Content.Chunk read() {
      Content.Chunk next = body;
      body = Content.Chunk.EOF;
      return next;
    }

    @Override
    public void demand(Runnable demandCallback) {
      demandCallback.run();
    }
  }
}
