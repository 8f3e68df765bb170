package dev.baton.samples.agentsserver;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.StreamCallback;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A scripted stand-in for a real model, so the sample runs with no provider: it answers in the part
 * its agent's system prompt gives it, streaming the answer in two chunks. A request that contains
 * "slowly" takes ten seconds (or until its run is aborted), so there is time to try {@code abort}.
 */
final class DemoModel {
  static final String NAME = "demo/scripted";

  private DemoModel() {}

  static void define(Baton baton) {
    baton.defineModel(
        NAME, ModelInfo.of("Scripted demo model", ModelInfo.Supports.TEXT_ONLY), DemoModel::answer);
  }

  private static ModelResponse answer(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    String question = "";
    for (Message message : request.messages()) {
      if (message.role() == Role.USER) {
        question = message.text();
      }
    }
    if (question.contains("slowly")) {
      CountDownLatch aborted = new CountDownLatch(1);
      try (var onAbort = context.cancellation().onCancel(aborted::countDown)) {
        aborted.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      context.cancellation().throwIfCancelled();
    }
    String system =
        request.messages().get(0).role() == Role.SYSTEM ? request.messages().get(0).text() : "";
    String opening =
        system.contains(ServedAgents.RESEARCHER_SYSTEM)
            ? "(demo) Findings on \""
            : "(demo) About \"";
    String rest =
        question
            + "\": "
            + (system.contains(ServedAgents.RESEARCHER_SYSTEM)
                ? "the key facts fit in a sentence or two."
                : "go in spring, pack light, and book the trains early.");
    stream.onChunk(ModelResponseChunk.text(opening));
    stream.onChunk(ModelResponseChunk.text(rest));
    return ModelResponse.of(Message.model(opening + rest), FinishReason.STOP);
  }
}
