package dev.baton.internal.agent;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.SessionState;
import dev.baton.agent.TurnContext;
import dev.baton.agent.TurnEnd;
import dev.baton.agent.TurnFunction;
import dev.baton.agent.TurnResult;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.internal.ai.GenerateRun;
import dev.baton.internal.ai.UsageListener;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.RandomIds;
import dev.baton.internal.core.TraceSpan;
import dev.baton.internal.core.Tracing;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedTransferQueue;
import org.jspecify.annotations.Nullable;

/**
 * The agent side of an invocation: the agent function, running its turn loop over the inputs the
 * client sends. It runs on a virtual thread of its own ({@link #start}), or on the client's thread
 * ({@link #runHere}) for a one-turn run; either way it streams to a {@link ChunkStream} and saves
 * turn ends through the {@link SnapshotChain}, and {@link #result()} completes when it returns.
 *
 * <p>Inputs are taken one at a time, in order; an abort or a cancelled client ({@code work}) ends
 * the loop. Turn state (the last turn's reason, the last good state) belongs to the worker's
 * thread; the reason is also read by the detached run that finalises the work. The agent's model
 * calls count in its session and, when a usage tree grows, in the turn's node ({@link
 * InvocationUsage}). A turn that a budget stops ({@link GenerateRun#stoppedWith}) ends {@code
 * aborted}, keeping its progress; any other error fails it. So does a turn-end snapshot the store
 * would not take: a turn is done only once its snapshot is committed.
 */
final class Worker {
  /** What the client sends the loop: an input, or the end of its input. */
  private sealed interface Mail {}

  private record Input(AgentInput input) implements Mail {}

  private record End() implements Mail {}

  private static final Mail END = new End();

  private final LocalAgent agent;
  private final LiveSession session;
  // The parent of turn spans; a detach moves it to the background span.
  private volatile ActionContext context;
  private final Cancellation work;
  private final ChunkStream chunks;
  private final SnapshotChain chain;
  private final CustomPatcher patcher;
  private final InvocationUsage usage;
  // Lock-free: a detached run's inbox lives as long as its work, thousands at once in a fan-out,
  // and a LinkedBlockingQueue carries two locks and two conditions (about 200 bytes) besides.
  private final LinkedTransferQueue<Mail> inbox = new LinkedTransferQueue<>();
  // The inputs offered and not yet taken into a turn's session, in order, guarded by itself: with
  // the session, the work a detach hands over. Small: it holds what the loop has yet to take.
  private final ArrayDeque<AgentInput> untaken = new ArrayDeque<>(2);
  private final CompletableFuture<AgentResult> result = new CompletableFuture<>();
  private volatile @Nullable AgentFinishReason lastTurnReason;
  // Why the last turn's end was not saved, or null: read by the output once the function returns.
  // Written by the worker's thread only.
  private volatile @Nullable BatonException uncommitted;
  private SessionState lastGood;
  private int turnIndex;

  Worker(
      LocalAgent agent,
      LiveSession session,
      ActionContext context,
      Cancellation work,
      ChunkStream chunks,
      SnapshotChain chain,
      UsageListener telemetry) {
    this.agent = agent;
    this.session = session;
    this.usage =
        new InvocationUsage(session, agent.name(), agent.options().usageTree(), context, telemetry);
    this.context = usage.install(context);
    this.work = work;
    this.chunks = chunks;
    this.chain = chain;
    this.lastGood = session.state();
    this.patcher = new CustomPatcher(session, chunks, agent.options().stateTransform());
    session.listen(patcher);
  }

  /**
   * Runs the agent function on a virtual thread of its own, which the agent's Baton instance owns;
   * {@code settled} runs when it ends.
   */
  void start(Runnable settled) {
    agent.lifecycle().start("baton-agent-" + agent.name(), new Body(this, settled));
  }

  /**
   * The body of a worker's own thread. A class rather than a lambda: a parked virtual thread's
   * stack is heap, held for as long as the model call it waits in, and a lambda puts two frames
   * (its class's and its synthetic method's) where this puts one; a background fan-out parks
   * thousands of these threads at once.
   */
  private record Body(Worker worker, Runnable settled) implements Runnable {
    @Override
    public void run() {
      try {
        worker.runHere();
      } finally {
        settled.run();
      }
    }
  }

  /** Runs the agent function on this thread, to its end. */
  void runHere() {
    try {
      Runner runner = new Runner(this);
      AgentResult returned;
      try {
        returned = agent.function().apply(runner);
      } finally {
        usage.close();
      }
      // An agent that returns nothing reports the usual result.
      result.complete(returned != null ? returned : runner.result());
    } catch (Throwable t) {
      result.completeExceptionally(t);
    }
  }

  /** Queues an input for the loop. */
  void offer(AgentInput input) {
    synchronized (untaken) {
      untaken.add(input);
      inbox.add(new Input(input));
    }
  }

  /**
   * The work a detached run is handed: the session as it stands, followed by the messages of the
   * inputs still waiting for their turns, so that a run whose worker dies can be re-attempted.
   */
  SessionState handedOver() {
    synchronized (untaken) {
      SessionState state = session.state();
      List<Message> messages = new ArrayList<>(state.messages());
      for (AgentInput waiting : untaken) {
        if (waiting.message() != null) {
          messages.add(waiting.message());
        }
      }
      return state.withMessages(messages);
    }
  }

  /** No more input: the loop ends once it has taken what was sent. */
  void close() {
    inbox.add(END);
  }

  /** What the agent function returned, once it has. */
  CompletableFuture<AgentResult> result() {
    return result;
  }

  /** The finish reason of the last turn that completed, or null. */
  @Nullable AgentFinishReason lastTurnReason() {
    return lastTurnReason;
  }

  /**
   * Why the last turn's end could not be saved, or null when it was (or nothing was to be): the
   * invocation must not report that turn done, even if the agent function went on.
   */
  @Nullable BatonException uncommitted() {
    return uncommitted;
  }

  /** The state after the last turn that completed: what a client-managed failure reports. */
  SessionState lastGood() {
    return lastGood;
  }

  LiveSession session() {
    return session;
  }

  ActionContext context() {
    return context;
  }

  /** Turns started from now on run under this context's span (a detach's background span). */
  void moveTo(ActionContext context) {
    this.context = context;
  }

  ChunkStream chunks() {
    return chunks;
  }

  /** The next input, or null once the client has closed its input. */
  @Nullable AgentInput nextInput() {
    // An aborted run takes no more of its queued inputs.
    work.throwIfCancelled();
    try (var wake = work.onCancel(() -> inbox.add(END))) {
      Mail next = inbox.take();
      if (next instanceof Input input) {
        return input.input();
      }
      work.throwIfCancelled();
      inbox.add(END); // later calls see the end too
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BatonException.from(e);
    }
  }

  /** Runs one turn: its span, its message, the function, then the turn-end snapshot. */
  void runTurn(TurnFunction turn, AgentInput input) {
    patcher.startTurn();
    // The last turn decides: one that commits saves what earlier ones did, one that fails says why.
    uncommitted = null;
    String reserved = agent.store() == null ? "" : RandomIds.uuid();
    String parent = chain.tip();
    TurnContext turnContext =
        TurnContext.of(reserved, parent == null ? "" : parent).withTurnIndex(turnIndex);
    ActionContext parentContext = context;
    Tracing tracing = DefaultRegistry.tracing(parentContext.registry());
    long start = System.nanoTime();
    try {
      // The span's frames only when there is a span: frames under a parked model call are heap.
      if (!tracing.isEnabled()) {
        turnBody(tracing.untraced(parentContext), turn, input, reserved, turnContext);
      } else {
        tracing.inSpan(
            parentContext,
            "runTurn-" + (turnIndex + 1),
            "flowStep",
            null,
            () -> input,
            ctx -> turnBody(ctx, turn, input, reserved, turnContext));
      }
    } catch (RuntimeException | Error e) {
      AgentTelemetry.recordTurn(parentContext, agent.name(), System.nanoTime() - start, e);
      throw e;
    }
    AgentTelemetry.recordTurn(parentContext, agent.name(), System.nanoTime() - start, null);
  }

  /** A turn inside its span: the input's message, the function, then the turn-end snapshot. */
  private Map<String, SessionState> turnBody(
      ActionContext ctx,
      TurnFunction turn,
      AgentInput input,
      String reserved,
      TurnContext turnContext) {
    synchronized (untaken) {
      untaken.remove(input);
      if (input.message() != null) {
        session.addMessage(input.message());
      }
    }
    TurnResult result;
    try {
      result = turn.apply(usage.startTurn(ctx.with(TurnContext.KEY, turnContext)), input);
    } catch (RuntimeException e) {
      endUnfinishedTurn(reserved, e);
      throw e;
    }
    return endTurn(ctx, reserved, result == null ? null : result.finishReason());
  }

  // The two ends of a turn in methods of their own: this frame stays under the turn's model calls
  // (for a background task, parked on the heap for as long as they last), and its size is that
  // of its locals, and the ends are code the JIT need not compile into it.

  /**
   * A turn that threw: its progress is kept as a failed or aborted row, a handle to continue. A
   * failed turn's end names the last good snapshot, as its output does; one a budget stopped names
   * its aborted row, which its output names too.
   */
  private void endUnfinishedTurn(String reserved, RuntimeException e) {
    AgentFinishReason ended =
        GenerateRun.stoppedWith(e).isPresent()
            ? AgentFinishReason.ABORTED
            : AgentFinishReason.FAILED;
    usage.endTurn(ended);
    String saved =
        chain.saveUnfinishedTurn(
            reserved,
            session.id(),
            session.state(),
            ended,
            Invocation.asError(e).toPublicErrorInfo());
    sendTurnEnd(ended, ended == AgentFinishReason.FAILED ? chain.lastGood() : saved);
  }

  /**
   * A turn that returned: the turn-end snapshot, and what the next turn starts from. A snapshot the
   * store did not take fails the turn, with the last good snapshot on its turn end.
   */
  private Map<String, SessionState> endTurn(
      ActionContext ctx, String reserved, @Nullable AgentFinishReason reason) {
    usage.endTurn(reason);
    SessionState committed = session.state();
    String saved;
    try {
      saved = chain.saveTurnEnd(reserved, session.id(), committed, reason);
    } catch (BatonException e) {
      uncommitted = e;
      sendTurnEnd(AgentFinishReason.FAILED, chain.lastGood());
      throw e;
    }
    TraceSpan span = TraceSpan.of(ctx);
    if (saved != null && span != null) {
      span.setMetadata("agent:snapshotId", saved);
    }
    sendTurnEnd(reason, saved);
    if (agent.store() == null) {
      lastGood = committed;
    }
    lastTurnReason = reason;
    turnIndex++;
    return Map.of("state", committed);
  }

  /** Streams a turn's end, unless nobody would see it. */
  private void sendTurnEnd(@Nullable AgentFinishReason reason, @Nullable String snapshotId) {
    if (!chunks.isDiscarding()) {
      chunks.send(AgentStreamChunk.of(new TurnEnd(reason, snapshotId)));
    }
  }
}
