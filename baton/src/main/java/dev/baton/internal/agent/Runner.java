package dev.baton.internal.agent;

import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRunner;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.Artifact;
import dev.baton.agent.Session;
import dev.baton.agent.TurnFunction;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import java.util.List;

/** The {@link AgentRunner} of one invocation. Thread-safe, as that interface says. */
final class Runner implements AgentRunner {
  private final Worker worker;

  Runner(Worker worker) {
    this.worker = worker;
  }

  @Override
  public Session session() {
    return worker.session();
  }

  @Override
  public ActionContext context() {
    return worker.context();
  }

  @Override
  public void run(TurnFunction turn) {
    AgentInput input;
    while ((input = worker.nextInput()) != null) {
      worker.runTurn(turn, input);
    }
  }

  /** Whether chunks sent now would go unseen, so that a turn need not build them. */
  boolean discardsChunks() {
    return worker.chunks().isDiscarding();
  }

  @Override
  public void sendChunk(ModelResponseChunk chunk) {
    worker.chunks().send(AgentStreamChunk.of(chunk));
  }

  @Override
  public void sendArtifact(Artifact artifact) {
    session().addArtifact(artifact);
  }

  @Override
  public AgentResult result() {
    List<Message> messages = session().messages();
    Message last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
    return AgentResult.of(last, session().artifacts());
  }
}
