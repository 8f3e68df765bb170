package dev.baton.internal.agent;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.StreamCallback;
import dev.baton.internal.core.Lifecycle;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A connection's invocation of an agent served by another process (Genkit's HTTP protocol, or
 * another agent protocol). Those protocols take one input per request, so each input becomes one
 * turn request, sent on a worker thread once the previous turn has answered, with the init that
 * resumes where that turn left off: its snapshot (server-managed) or its state (client-managed).
 * The invocation settles when the input is closed and every input has run, or at the first turn
 * that fails, detaches, or throws.
 *
 * <p>A pure detach input makes the latest input not yet sent go in the background; with none
 * waiting it is refused, since a request already sent cannot be detached.
 *
 * <p>Thread-safe: one client thread sends and reads, one worker runs the turns.
 */
final class RemoteInvocation implements Connection.Source {
  private sealed interface Event {}

  private record Chunk(AgentStreamChunk chunk) implements Event {}

  private record Settled() implements Event {}

  private final Agent agent;
  private final ActionContext context;
  private final Cancellation.Registration cancelLink;
  private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition inputArrived = lock.newCondition();
  // Guarded by lock.
  private final Deque<AgentInput> waiting = new ArrayDeque<>();
  private boolean inputClosed;
  private boolean settled;
  private AgentInit init;
  private @Nullable AgentOutput output;
  private @Nullable RuntimeException failure;

  RemoteInvocation(Agent agent, Lifecycle lifecycle, ActionContext context, AgentInit init) {
    this.agent = agent;
    this.context = context;
    this.init = init;
    // A client that goes away without closing the input must not leave the worker waiting.
    this.cancelLink = context.cancellation().onCancel(this::closeInput);
    lifecycle.start("baton-remote-" + agent.name(), this::runTurns);
  }

  @Override
  public void send(AgentInput input) {
    lock.lock();
    try {
      if (settled || inputClosed) {
        throw BatonException.failedPrecondition(
            "the invocation of agent \"%s\" has completed; start a new one to send more input",
            agent.name());
      }
      if (input.isDetach() && !input.hasPayload()) {
        AgentInput last = waiting.pollLast();
        if (last == null) {
          throw BatonException.failedPrecondition(
              "remote agent \"%s\": its turns already went out and cannot be detached; send"
                  + " detach with the input instead",
              agent.name());
        }
        waiting.addLast(last.withDetach(true));
        return;
      }
      waiting.addLast(input);
      inputArrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void closeInput() {
    lock.lock();
    try {
      inputClosed = true;
      inputArrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public @Nullable AgentStreamChunk nextChunk() {
    try {
      return switch (events.take()) {
        case Chunk chunk -> chunk.chunk();
        case Settled done -> {
          events.add(done); // later calls see the end too
          lock.lock();
          try {
            if (failure != null) {
              throw failure;
            }
          } finally {
            lock.unlock();
          }
          yield null;
        }
      };
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BatonException.from(e);
    }
  }

  @Override
  public AgentOutput awaitOutput(StreamCallback<AgentStreamChunk> sink) {
    closeInput();
    AgentStreamChunk chunk;
    while ((chunk = nextChunk()) != null) {
      sink.onChunk(chunk);
    }
    lock.lock();
    try {
      if (output == null) {
        throw BatonException.failedPrecondition(
            "the invocation of agent \"%s\" ended without any input", agent.name());
      }
      return output;
    } finally {
      lock.unlock();
    }
  }

  private void runTurns() {
    try {
      AgentInput input;
      while ((input = next()) != null) {
        AgentOutput result;
        try {
          result = agent.run(context, input, currentInit(), chunk -> events.add(new Chunk(chunk)));
        } catch (RuntimeException e) {
          settle(e);
          return;
        }
        boolean last = result.finishReason() == AgentFinishReason.DETACHED || result.isFailed();
        lock.lock();
        try {
          output = result;
          if (result.snapshotId() != null) {
            init = AgentInit.ofSnapshot(result.snapshotId());
          } else if (result.state() != null) {
            init = AgentInit.ofState(result.state());
          } else if (result.sessionId() != null) {
            // An answer without a snapshot (an A2A agent's plain message) still names its session.
            init = AgentInit.ofSession(result.sessionId());
          }
        } finally {
          lock.unlock();
        }
        if (last) {
          break;
        }
      }
      settle(null);
    } catch (InterruptedException e) {
      settle(BatonException.from(e));
    }
  }

  /** The next input to run, or null once the input is closed and drained. */
  private @Nullable AgentInput next() throws InterruptedException {
    lock.lock();
    try {
      while (waiting.isEmpty() && !inputClosed) {
        inputArrived.await();
      }
      return waiting.pollFirst();
    } finally {
      lock.unlock();
    }
  }

  private AgentInit currentInit() {
    lock.lock();
    try {
      return init;
    } finally {
      lock.unlock();
    }
  }

  private void settle(@Nullable RuntimeException error) {
    cancelLink.close();
    lock.lock();
    try {
      settled = true;
      failure = error;
    } finally {
      lock.unlock();
    }
    events.add(new Settled());
  }
}
