package dev.baton.internal.agent;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRunner;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.TurnContext;
import dev.baton.agent.TurnEnd;
import dev.baton.agent.TurnFunction;
import dev.baton.agent.TurnResult;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.ai.UsageListener;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.TraceSpan;
import dev.baton.internal.core.Tracing;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One invocation of an agent: the agent function running on its own virtual thread, the inputs the
 * client sends it, the chunks it streams back, the turn-end snapshots it saves, and its output.
 *
 * <p>The client side calls {@link #send}, {@link #closeInput} and {@link #awaitOutput}; the agent
 * side ({@link AgentRunner}) calls {@link #nextInput} and {@link #runTurn}. Detach is decided by
 * the client side: a detach input latches the stream shut at once, before the input reaches the
 * worker, and {@code awaitOutput} then hands the work to a {@link DetachedRun} and answers with the
 * pending snapshot. A detach that races the function's completion wins.
 */
final class Invocation {
  private static final Logger log = LoggerFactory.getLogger(Invocation.class);
  private static final Object END = new Object();

  private final LocalAgent agent;
  private final ActionContext clientContext;
  private final Tracing.OpenSpan rootSpan;
  private final Cancellation work = Cancellation.create();
  private final Cancellation.Registration clientLink;
  private final ActionContext workContext;
  private final LiveSession session;
  private final ChunkRouter router;
  private final CustomPatcher patcher;
  private final LinkedBlockingQueue<Object> inputs = new LinkedBlockingQueue<>();
  private final CompletableFuture<AgentResult> done = new CompletableFuture<>();
  private final AtomicBoolean detachRequested = new AtomicBoolean();
  private final AtomicBoolean inputClosed = new AtomicBoolean();
  private volatile boolean settled;
  // The client side's state, guarded by clientLock (not a monitor: it is held while the client
  // blocks for events, which would pin a virtual thread's carrier before JDK 24).
  private final ReentrantLock clientLock = new ReentrantLock();
  private @Nullable AgentOutput output;
  private @Nullable RuntimeException failure;

  // Guarded by snapshotLock: the chain tip and whether turn ends still write snapshots. A lock
  // rather than a monitor, since it is held across the store write (an fsync, say).
  private final ReentrantLock snapshotLock = new ReentrantLock();
  private @Nullable String lastSnapshotId;
  private boolean snapshotsSuspended;

  // Touched by the worker thread only.
  private @Nullable AgentFinishReason lastTurnReason;
  private SessionState lastGood;
  private int turnIndex;

  /**
   * @param direct where chunks go when the invocation will {@link #runInline run on the client's
   *     thread}; null for an invocation with a worker thread
   */
  Invocation(
      LocalAgent agent,
      ActionContext clientContext,
      AgentInit init,
      @Nullable StreamCallback<AgentStreamChunk> direct) {
    this.agent = agent;
    this.clientContext = clientContext;
    this.rootSpan =
        DefaultRegistry.tracing(clientContext.registry())
            .open(clientContext, agent.name(), "action", "agent", () -> init);
    SessionLoader.Loaded loaded;
    try {
      loaded =
          SessionLoader.load(
              agent.name(), agent.store(), init, clientContext, agent.options().heartbeatTimeout());
    } catch (RuntimeException e) {
      rootSpan.fail(e);
      throw e;
    }
    rootSpan.span().setMetadata("agent:sessionId", loaded.sessionId());
    this.session = new LiveSession(loaded.sessionId(), loaded.state());
    this.lastSnapshotId = loaded.resumedSnapshotId();
    this.lastGood = session.state();
    this.router = new ChunkRouter(agent.options().streamTransform(), direct, work::cancel);
    this.patcher = new CustomPatcher(session, router, agent.options().stateTransform());
    session.listen(patcher);
    // Until a detach, the client's cancellation is the work's; afterwards only an abort is.
    this.clientLink =
        clientContext
            .cancellation()
            .onCancel(
                () -> {
                  if (!detachRequested.get()) {
                    work.cancel();
                    router.cancelled();
                  }
                });
    this.workContext =
        rootSpan
            .context()
            .withCancellation(work)
            .with(LiveSession.KEY, session)
            .with(UsageListener.KEY, session::addUsage);
  }

  void start() {
    Thread.ofVirtual()
        .name("baton-agent-" + agent.name())
        .start(
            () -> {
              try {
                done.complete(resultOf(new Runner(this)));
              } catch (Throwable t) {
                done.completeExceptionally(t);
              } finally {
                router.settle();
              }
            });
  }

  /**
   * Runs a one-turn invocation on the calling thread and returns its output: no worker thread, no
   * hand-off, chunks straight to the client's callback. The agent function must honour
   * cancellation, since it runs on the caller's thread. Not for detach inputs, which need a worker
   * that outlives the call.
   */
  AgentOutput runInline(AgentInput input) {
    send(input);
    closeInput();
    try {
      done.complete(resultOf(new Runner(this)));
    } catch (Throwable t) {
      done.completeExceptionally(t);
    }
    try {
      AgentOutput result = finish();
      clientLock.lock();
      try {
        output = result;
        settled = true;
      } finally {
        clientLock.unlock();
      }
      rootSpan.succeed(result);
      return result;
    } catch (RuntimeException e) {
      throw fail(e);
    }
  }

  /** What the agent function returns; an agent that returns nothing reports the usual result. */
  private AgentResult resultOf(AgentRunner runner) {
    AgentResult result = agent.function().apply(runner);
    return result != null ? result : runner.result();
  }

  LiveSession session() {
    return session;
  }

  ActionContext workContext() {
    return workContext;
  }

  ChunkRouter router() {
    return router;
  }

  // ---- client side -------------------------------------------------------------------------

  /**
   * Sends an input. A detach input shuts the stream at once; its message or resume, if any, still
   * runs as a turn, in the background. A pure detach starts no turn.
   */
  void send(AgentInput input) {
    if (settled || inputClosed.get()) {
      throw BatonException.failedPrecondition(
          "the invocation of agent \"%s\" has completed; start a new one to send more input",
          agent.name());
    }
    if (input.isDetach()) {
      // From here the client may go away: its cancellation no longer reaches the work.
      boolean first = detachRequested.compareAndSet(false, true);
      router.latchDetached();
      clientLink.close();
      if (input.hasPayload()) {
        inputs.add(input.withDetach(false));
      }
      if (first) {
        router.settle();
      }
      return;
    }
    inputs.add(input);
  }

  /** No more input: the agent's {@code run} loop ends once it has taken what was sent. */
  void closeInput() {
    if (inputClosed.compareAndSet(false, true)) {
      inputs.add(END);
    }
  }

  /**
   * The next chunk for the client, or null once the invocation has settled, its output computed
   * (see {@link #output()}). Blocks until one of the two. Stops at once when the client's context
   * is cancelled, even if the agent function ignores cancellation.
   *
   * @throws BatonException {@code CANCELLED} when the client cancelled before the work settled
   */
  @Nullable AgentStreamChunk nextChunk() {
    clientLock.lock();
    try {
      return nextChunkLocked();
    } finally {
      clientLock.unlock();
    }
  }

  private @Nullable AgentStreamChunk nextChunkLocked() {
    if (output != null) {
      return null;
    }
    if (failure != null) {
      throw failure;
    }
    try {
      while (true) {
        ChunkRouter.Event event = router.take();
        if (event instanceof ChunkRouter.Chunk chunk) {
          return chunk.chunk();
        }
        if (event instanceof ChunkRouter.Cancelled && !detachRequested.get()) {
          throw clientCancelled();
        }
        if (event instanceof ChunkRouter.Settled) {
          AgentOutput result = detachRequested.get() ? detach() : finish();
          output = result;
          settled = true;
          rootSpan.succeed(result);
          return null;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      work.cancel();
      throw fail(BatonException.from(e));
    } catch (RuntimeException e) {
      throw fail(e);
    }
  }

  private RuntimeException fail(RuntimeException e) {
    failure = e;
    settled = true;
    clientLink.close();
    rootSpan.fail(e);
    return e;
  }

  /** Closes the input and waits for the output, handing remaining chunks to {@code sink}. */
  AgentOutput awaitOutput(StreamCallback<AgentStreamChunk> sink) {
    closeInput();
    AgentStreamChunk chunk;
    while ((chunk = nextChunk()) != null) {
      sink.onChunk(chunk);
    }
    return output();
  }

  /** The output, once {@link #nextChunk()} has returned null. */
  AgentOutput output() {
    clientLock.lock();
    try {
      if (output == null) {
        throw new IllegalStateException("the invocation has not settled");
      }
      return output;
    } finally {
      clientLock.unlock();
    }
  }

  private BatonException clientCancelled() {
    BatonException reason = clientContext.cancellation().reason();
    return reason != null
        ? reason
        : new BatonException(Status.CANCELLED, "the invocation was cancelled");
  }

  /** The output of an invocation that ran to its end in the foreground. */
  private AgentOutput finish() {
    clientLink.close();
    AgentResult result;
    try {
      result = done.get();
    } catch (ExecutionException e) {
      if (clientContext.cancellation().isCancelled()) {
        throw clientCancelled();
      }
      // A failing stream callback cancels the work: its own error is the reason, not the cancel.
      BatonException closed = router.failure();
      return failedOutput(closed != null ? closed : asError(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BatonException.from(e);
    }
    BatonException closed = router.failure();
    if (closed != null) {
      return failedOutput(closed);
    }
    SessionState state = null;
    if (agent.store() == null) {
      try {
        state = clientView(session.state());
      } catch (RuntimeException e) {
        return failedOutput(BatonException.from(e));
      }
    }
    AgentFinishReason reason =
        result.finishReason() != null ? result.finishReason() : lastTurnReason;
    return AgentOutput.of(session.id(), snapshotId(), reason, result.message(), result.artifacts())
        .withState(state);
  }

  private AgentOutput failedOutput(BatonException error) {
    SessionState state = null;
    if (agent.store() == null) {
      try {
        state = clientView(lastGood);
      } catch (RuntimeException transformFailure) {
        log.warn(
            "agent {}: the state transform failed on a failed output",
            agent.name(),
            transformFailure);
      }
    }
    return AgentOutput.failed(session.id(), snapshotId(), reported(error)).withState(state);
  }

  private SessionState clientView(SessionState state) {
    UnaryOperator<SessionState> transform = agent.options().stateTransform();
    SessionState shaped = transform == null ? state : transform.apply(state);
    return shaped.withSessionId(session.id());
  }

  private @Nullable String snapshotId() {
    snapshotLock.lock();
    try {
      return lastSnapshotId;
    } finally {
      snapshotLock.unlock();
    }
  }

  /**
   * The error as outputs and snapshots carry it: an internal error's message is logged here and
   * replaced by its status's generic text, since outputs and snapshots reach remote clients.
   */
  static ErrorInfo reported(BatonException error) {
    if (!error.isPublic()) {
      log.warn("agent run failed: {}", error.getMessage(), error);
    }
    return error.toPublicErrorInfo();
  }

  static BatonException asError(@Nullable Throwable error) {
    if (error instanceof BatonException batonException) {
      return batonException;
    }
    String what =
        error == null ? "unknown error" : error.getClass().getName() + ": " + error.getMessage();
    return BatonException.internal("agent function failed: " + what, error);
  }

  /** Hands the work to the background and answers with the pending snapshot. */
  private AgentOutput detach() {
    SessionStore store = agent.store();
    clientLink.close();
    if (store == null || !(store instanceof SnapshotSubscriber)) {
      work.cancel();
      return failedOutput(
          BatonException.failedPrecondition(
              "agent \"%s\": detach requires a session store%s",
              agent.name(), store == null ? "" : " implementing SnapshotSubscriber"));
    }
    String parentId;
    snapshotLock.lock();
    try {
      // A turn-end write in flight holds this lock, so the pending row chains off it.
      snapshotsSuspended = true;
      parentId = lastSnapshotId;
    } finally {
      snapshotLock.unlock();
    }
    String pendingId = UUID.randomUUID().toString();
    Instant now = Instant.now();
    SessionSnapshot pending = SessionSnapshot.pending(pendingId, session.id(), parentId, now);
    try {
      store.saveSnapshot(storeContext(), pendingId, existing -> pending);
    } catch (RuntimeException e) {
      work.cancel();
      // The store's own status and visibility: an outage must not read as "cannot detach", and a
      // store message (a file path, say) must not reach the client.
      BatonException cause = BatonException.from(e);
      return failedOutput(
          new BatonException(
              cause.status(),
              "agent \""
                  + agent.name()
                  + "\": detach: save pending snapshot: "
                  + cause.getMessage(),
              cause.details(),
              cause.isPublic(),
              e));
    }
    new DetachedRun(
            agent, store, storeContext(), pending, session, work, done, () -> lastTurnReason)
        .start();
    // Inputs already queued still run; nothing more can arrive.
    closeInput();
    return AgentOutput.detached(session.id(), pendingId);
  }

  /** Store calls outlive the client: they keep its auth (for tenancy) but not its cancellation. */
  private ActionContext storeContext() {
    return clientContext.withCancellation(Cancellation.never());
  }

  // ---- agent side --------------------------------------------------------------------------

  /** The next input, or null once the client has closed its input. */
  @Nullable AgentInput nextInput() {
    // An aborted run takes no more of its queued inputs.
    work.throwIfCancelled();
    try (var wake = work.onCancel(() -> inputs.add(END))) {
      Object next = inputs.take();
      if (next == END) {
        work.throwIfCancelled();
        inputs.add(END); // later calls see the end too
        return null;
      }
      return (AgentInput) next;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BatonException.from(e);
    }
  }

  /** Runs one turn: its span, its message, the function, then the turn-end snapshot. */
  void runTurn(TurnFunction turn, AgentInput input) {
    patcher.startTurn();
    String reserved = agent.store() == null ? "" : UUID.randomUUID().toString();
    String parent;
    snapshotLock.lock();
    try {
      parent = lastSnapshotId == null ? "" : lastSnapshotId;
    } finally {
      snapshotLock.unlock();
    }
    TurnContext turnContext = new TurnContext(reserved, parent, turnIndex);
    DefaultRegistry.tracing(workContext.registry())
        .inSpan(
            workContext,
            "runTurn-" + (turnIndex + 1),
            "flowStep",
            null,
            () -> input,
            ctx -> {
              if (input.message() != null) {
                session.addMessage(input.message());
              }
              TurnResult result;
              try {
                result = turn.apply(ctx.with(TurnContext.KEY, turnContext), input);
              } catch (RuntimeException e) {
                router.send(AgentStreamChunk.of(new TurnEnd(AgentFinishReason.FAILED, null)));
                throw e;
              }
              AgentFinishReason reason = result == null ? null : result.finishReason();
              String saved = saveTurnEnd(reserved, reason);
              TraceSpan span = TraceSpan.of(ctx);
              if (saved != null && span != null) {
                span.setMetadata("agent:snapshotId", saved);
              }
              router.send(AgentStreamChunk.of(new TurnEnd(reason, saved)));
              SessionState committed = session.state();
              if (agent.store() == null) {
                lastGood = committed;
              }
              lastTurnReason = reason;
              turnIndex++;
              return Map.of("state", committed);
            });
  }

  /**
   * Saves the turn-end snapshot under the reserved ID. A failure is logged, not fatal: the turn
   * simply has no snapshot. Nothing is written once a detach has suspended snapshots.
   */
  private @Nullable String saveTurnEnd(String reserved, @Nullable AgentFinishReason reason) {
    SessionStore store = agent.store();
    if (store == null) {
      return null;
    }
    snapshotLock.lock();
    try {
      if (snapshotsSuspended) {
        return null;
      }
      Instant now = Instant.now();
      SessionSnapshot row =
          SessionSnapshot.completed(
              reserved, session.id(), lastSnapshotId, now, reason, session.state());
      try {
        SessionSnapshot saved = store.saveSnapshot(storeContext(), reserved, existing -> row);
        if (saved == null) {
          return null;
        }
        lastSnapshotId = saved.snapshotId();
        return saved.snapshotId();
      } catch (RuntimeException e) {
        log.warn("agent {}: saving the turn-end snapshot failed", agent.name(), e);
        return null;
      }
    } finally {
      snapshotLock.unlock();
    }
  }
}
