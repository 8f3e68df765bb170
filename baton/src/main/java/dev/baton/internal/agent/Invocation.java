package dev.baton.internal.agent;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.BackgroundStream;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Message;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.ai.GenerateRun;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.Lifecycle;
import dev.baton.internal.core.RandomIds;
import dev.baton.internal.core.Tracing;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One invocation of an agent, from the client's side: it resolves the session, opens the agent's
 * span, runs a {@link Worker}, and builds the output. A one-turn run ({@link #runOnCallerThread})
 * runs the worker on the client's thread, with chunks going straight to the client's callback; a
 * connection ({@link #open}) runs it on a thread of its own, and the client sends inputs and reads
 * chunks through a queue.
 *
 * <p>Detach is decided here: a detach input shuts the stream at once, before the input reaches the
 * worker, and the output then hands the work to a {@link DetachedRun} and answers with the pending
 * snapshot. A detach that races the function's completion wins. Until a detach the client's
 * cancellation stops the work; afterwards only an abort does.
 *
 * <p>The agent's Baton instance admits the invocation (a closing one refuses it) and tracks it
 * until its worker ends or hands its work to a detached run; a close whose grace period is over
 * cancels it.
 */
final class Invocation implements Connection.Source, Lifecycle.Work {
  private static final Logger log = LoggerFactory.getLogger(Invocation.class);

  /** What the client of a connection reads. */
  private sealed interface Event {}

  private record Chunk(AgentStreamChunk chunk) implements Event {}

  /** The worker finished, or a detach was requested: time to build the output. */
  private record Settled() implements Event {}

  /** The client's own context was cancelled. */
  private record Cancelled() implements Event {}

  private final LocalAgent agent;
  private final ActionContext clientContext;
  private final Tracing.OpenSpan rootSpan;
  private final AgentTelemetry telemetry;
  // The pending snapshot a detach handed the work to, or null when the hand-off failed.
  private final CompletableFuture<@Nullable String> handedOff = new CompletableFuture<>();
  // The in-process observer of the detached work, handed to the detached run, which ends it.
  private volatile @Nullable BackgroundStream follower;
  private final Cancellation work = Cancellation.create();
  private final Lifecycle.Tracked admission;
  private final Cancellation.Registration clientLink;
  private final SnapshotChain chain;
  private final ChunkStream chunks;
  private final Worker worker;
  // Lock-free, and lighter than a LinkedBlockingQueue's two locks and conditions: see Worker.
  private final LinkedTransferQueue<Event> events = new LinkedTransferQueue<>();
  private final AtomicBoolean detachRequested = new AtomicBoolean();
  private final AtomicBoolean inputClosed = new AtomicBoolean();
  private volatile boolean settled;
  // The client side's state. A lock rather than a monitor: it is held while the client blocks for
  // events, which would pin a virtual thread's carrier before JDK 24.
  private final ReentrantLock clientLock = new ReentrantLock();
  private @Nullable AgentOutput output;
  private @Nullable RuntimeException failure;

  /**
   * @param stream the client's callback, for a worker on the client's thread; null for a
   *     connection, whose client reads the event queue
   */
  private Invocation(
      LocalAgent agent,
      ActionContext clientContext,
      AgentInit init,
      @Nullable StreamCallback<AgentStreamChunk> stream) {
    this.agent = agent;
    this.clientContext = clientContext;
    this.admission = agent.lifecycle().admit(this);
    this.rootSpan =
        DefaultRegistry.tracing(clientContext.registry())
            .open(clientContext, agent.name(), "action", "agent", () -> init);
    rootSpan.recordContent("genkit:init", () -> init);
    SessionLoader.Loaded loaded;
    try {
      loaded =
          SessionLoader.load(
              agent.name(), agent.store(), init, clientContext, agent.options().heartbeatTimeout());
    } catch (RuntimeException e) {
      admission.close();
      rootSpan.fail(e);
      throw e;
    }
    this.telemetry = new AgentTelemetry(agent, loaded.sessionId());
    telemetry.describe(rootSpan.span());
    LiveSession session =
        new LiveSession(
            loaded.sessionId(),
            loaded.state(),
            DefaultRegistry.jsonMapper(clientContext.registry()));
    this.chain =
        new SnapshotChain(
            agent.name(),
            agent.store(),
            clientContext,
            loaded.resumedSnapshotId(),
            loaded.lastGoodSnapshotId(),
            agent.options().heartbeatTimeout(),
            work);
    this.chunks =
        new ChunkStream(
            agent.options().streamTransform(),
            stream != null ? stream : chunk -> events.add(new Chunk(chunk)),
            work::cancel);
    this.clientLink =
        clientContext
            .cancellation()
            .onCancel(
                () -> {
                  if (!detachRequested.get()) {
                    work.cancel();
                    events.add(new Cancelled());
                  }
                });
    ActionContext workContext =
        telemetry
            .workContext(rootSpan.context())
            .withCancellation(work)
            .with(LiveSession.KEY, session);
    this.worker =
        new Worker(
            agent,
            session,
            workContext,
            work,
            chunks,
            chain,
            (model, usage) -> telemetry.addUsage(usage));
  }

  /**
   * Runs one turn on the calling thread and returns its output: no worker thread, no hand-off, and
   * chunks go straight to {@code stream}. The agent function must honour cancellation, since it
   * runs on the caller's thread. Not for detach inputs, whose work outlives the call.
   */
  static AgentOutput runOnCallerThread(
      LocalAgent agent,
      ActionContext context,
      AgentInit init,
      AgentInput input,
      StreamCallback<AgentStreamChunk> stream) {
    Invocation invocation = new Invocation(agent, context, init, stream);
    try {
      invocation.send(input);
      invocation.closeInput();
      invocation.worker.runHere();
      try {
        AgentOutput result = invocation.finish();
        invocation.settle(result);
        return result;
      } catch (RuntimeException e) {
        throw invocation.fail(e);
      }
    } finally {
      invocation.admission.close();
    }
  }

  /** Opens an invocation whose worker runs on a thread of its own; the client sends inputs. */
  static Invocation open(LocalAgent agent, ActionContext context, AgentInit init) {
    Invocation invocation = new Invocation(agent, context, init, null);
    try {
      invocation.worker.start(
          () -> {
            invocation.admission.close();
            invocation.events.add(new Settled());
          });
    } catch (RuntimeException e) {
      invocation.admission.close(); // the instance closed meanwhile
      throw invocation.fail(e);
    }
    return invocation;
  }

  /** The instance is closing and its grace period is over: the work stops, failing with why. */
  @Override
  public void abort(BatonException reason) {
    work.cancel(reason);
  }

  /**
   * Sends an input. A detach input shuts the stream at once; its message or resume, if any, still
   * runs as a turn, in the background. A pure detach starts no turn, and neither does a detach the
   * agent cannot take: the output refuses it before any of its work starts.
   */
  @Override
  public void send(AgentInput input) {
    if (settled || inputClosed.get()) {
      throw BatonException.failedPrecondition(
          "the invocation of agent \"%s\" has completed; start a new one to send more input",
          agent.name());
    }
    if (!input.isDetach()) {
      worker.offer(input);
      return;
    }
    // From here the client may go away: its cancellation no longer reaches the work.
    boolean first = detachRequested.compareAndSet(false, true);
    chunks.latchDetached();
    clientLink.close();
    boolean refused = !canDetach();
    if (first && !refused) {
      moveToBackground(input);
    }
    if (input.hasPayload() && !refused) {
      worker.offer(input.withDetach(false));
    }
    if (first) {
      events.add(new Settled());
    }
  }

  /**
   * Turns that start from now on, the detach's own payload included, run under a background span
   * linked to this invocation's. It ends once the agent function has returned and the output has
   * handed the work off (naming the pending snapshot), whichever comes last.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // ending a span does not fail
  private void moveToBackground(AgentInput input) {
    Tracing.OpenSpan background =
        telemetry.openBackground(worker.context(), input.hasPayload() ? input : null);
    worker.moveTo(background.context());
    worker
        .result()
        .whenComplete(
            (result, error) ->
                handedOff.thenAccept(
                    snapshotId -> {
                      if (snapshotId != null) {
                        background.span().setMetadata("agent:snapshotId", snapshotId);
                      }
                      telemetry.recordUsage(background.span());
                      if (error == null) {
                        background.succeed(result);
                      } else {
                        background.fail(error);
                      }
                    }));
  }

  /**
   * Streams the work to {@code observer} after a detach as well; its {@link BackgroundStream#onEnd}
   * is the detached run's to call. Set before the detach input is sent.
   */
  void follow(BackgroundStream observer) {
    follower = observer;
    chunks.follow(observer);
  }

  /** No more input: the agent's {@code run} loop ends once it has taken what was sent. */
  @Override
  public void closeInput() {
    if (inputClosed.compareAndSet(false, true)) {
      worker.close();
    }
  }

  /**
   * The next chunk for the client, or null once the invocation has settled, its output computed
   * (see {@link #output()}). Blocks until one of the two. Stops at once when the client's context
   * is cancelled, even if the agent function ignores cancellation.
   *
   * @throws BatonException {@code CANCELLED} when the client cancelled before the work settled
   */
  @Override
  public @Nullable AgentStreamChunk nextChunk() {
    clientLock.lock();
    try {
      if (output != null) {
        return null;
      }
      if (failure != null) {
        throw failure;
      }
      while (true) {
        switch (events.take()) {
          case Chunk chunk -> {
            return chunk.chunk();
          }
          case Cancelled cancelled -> {
            if (!detachRequested.get()) {
              throw clientCancelled();
            }
          }
          case Settled done -> {
            settle(detachRequested.get() ? detach() : finish());
            return null;
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      work.cancel();
      throw fail(BatonException.from(e));
    } catch (RuntimeException e) {
      throw fail(e);
    } finally {
      clientLock.unlock();
    }
  }

  /** Closes the input and waits for the output, handing remaining chunks to {@code sink}. */
  @Override
  public AgentOutput awaitOutput(StreamCallback<AgentStreamChunk> sink) {
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

  private void settle(AgentOutput result) {
    clientLock.lock();
    try {
      output = result;
      settled = true;
    } finally {
      clientLock.unlock();
    }
    telemetry.recordUsage(rootSpan.span());
    rootSpan.succeed(result);
  }

  private RuntimeException fail(RuntimeException e) {
    failure = e;
    settled = true;
    clientLink.close();
    telemetry.recordUsage(rootSpan.span());
    rootSpan.fail(e);
    return e;
  }

  private BatonException clientCancelled() {
    BatonException reason = clientContext.cancellation().reason();
    return reason != null
        ? reason
        : new BatonException(Status.CANCELLED, "the invocation was cancelled");
  }

  /**
   * The output of an invocation that ran to its end in the foreground: failed when the function
   * failed, aborted when a budget stopped it.
   */
  private AgentOutput finish() {
    clientLink.close();
    AgentResult result;
    try {
      result = worker.result().get();
    } catch (ExecutionException e) {
      if (clientContext.cancellation().isCancelled()) {
        throw clientCancelled();
      }
      // A failing stream callback cancels the work: its own error is the reason, not the cancel.
      BatonException closed = chunks.failure();
      BatonException uncommitted = worker.uncommitted();
      if (closed == null && uncommitted != null) {
        return uncommittedOutput(uncommitted, lastMessage(worker.session()));
      }
      if (closed == null && e.getCause() instanceof BatonException error) {
        GenerateResponse stopped = GenerateRun.stoppedWith(error).orElse(null);
        if (stopped != null) {
          return abortedOutput(error, stopped);
        }
      }
      return failedOutput(closed != null ? closed : asError(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BatonException.from(e);
    }
    BatonException closed = chunks.failure();
    if (closed != null) {
      return failedOutput(closed);
    }
    BatonException uncommitted = worker.uncommitted();
    if (uncommitted != null) {
      return uncommittedOutput(uncommitted, result.message());
    }
    LiveSession session = worker.session();
    SessionState state = null;
    if (agent.store() == null) {
      try {
        state = clientView(session.state());
      } catch (RuntimeException e) {
        return failedOutput(BatonException.from(e));
      }
    }
    AgentFinishReason reason =
        result.finishReason() != null ? result.finishReason() : worker.lastTurnReason();
    return AgentOutput.of(
            session.id(), chain.lastGood(), reason, result.message(), result.artifacts())
        .withState(state);
  }

  private AgentOutput failedOutput(BatonException error) {
    SessionState state = null;
    if (agent.store() == null) {
      try {
        state = clientView(worker.lastGood());
      } catch (RuntimeException transformFailure) {
        log.warn(
            "agent {}: the state transform failed on a failed output",
            agent.name(),
            transformFailure);
      }
    }
    return AgentOutput.failed(worker.session().id(), chain.lastGood(), reported(error))
        .withState(state);
  }

  /**
   * The output of an invocation whose last turn answered but whose snapshot the store would not
   * take: failed, with the store's error and the last good snapshot, and, unlike other failures,
   * with the answer and the artifacts, so the caller can show them. Nothing was acknowledged that
   * was not committed, but the turn's row may have been (an attempt reported failed can commit).
   */
  private AgentOutput uncommittedOutput(BatonException error, @Nullable Message answer) {
    LiveSession session = worker.session();
    return AgentOutput.failed(
        session.id(), chain.lastGood(), answer, session.artifacts(), reported(error));
  }

  private static @Nullable Message lastMessage(LiveSession session) {
    List<Message> messages = session.messages();
    return messages.isEmpty() ? null : messages.get(messages.size() - 1);
  }

  /**
   * The output of an invocation a budget stopped: aborted, with the error, the run's partial
   * response as its message (none when the run stopped before its first model call), and the
   * progress the stopped turn made: its aborted row (the last good snapshot when that could not be
   * saved), or the state itself for a client-managed agent.
   */
  private AgentOutput abortedOutput(BatonException error, GenerateResponse stopped) {
    LiveSession session = worker.session();
    SessionState state = null;
    if (agent.store() == null) {
      try {
        state = clientView(session.state());
      } catch (RuntimeException e) {
        return failedOutput(BatonException.from(e));
      }
    }
    String row = chain.unfinished();
    return AgentOutput.aborted(
            session.id(),
            row != null ? row : chain.lastGood(),
            partialMessage(stopped, session.messages()),
            session.artifacts(),
            reported(error))
        .withState(state);
  }

  /**
   * The stopped run's last model message, as the session keeps it when it does (with what the turn
   * recorded on it), or null when the run made none.
   */
  private static @Nullable Message partialMessage(
      GenerateResponse stopped, List<Message> messages) {
    Message partial = stopped.response().message();
    if (partial == null || partial.content().isEmpty()) {
      return null;
    }
    for (int i = messages.size() - 1; i >= 0; i--) {
      Message kept = messages.get(i);
      if (kept.role() == Role.MODEL) {
        return kept.content().equals(partial.content()) ? kept : partial;
      }
    }
    return partial;
  }

  private SessionState clientView(SessionState state) {
    UnaryOperator<SessionState> transform = agent.options().stateTransform();
    SessionState shaped = transform == null ? state : transform.apply(state);
    return shaped.withSessionId(worker.session().id());
  }

  /** Hands the work to the background and answers with the pending snapshot. */
  private AgentOutput detach() {
    try {
      return handOff();
    } finally {
      handedOff.complete(null); // a no-op after a hand-off, which completed it with its snapshot
    }
  }

  private AgentOutput handOff() {
    SessionStore store = agent.store();
    clientLink.close();
    if (store == null || !canDetach()) {
      work.cancel();
      return failedOutput(
          BatonException.failedPrecondition(
              "agent \"%s\": detach requires a session store%s",
              agent.name(), store == null ? "" : " implementing SnapshotSubscriber"));
    }
    LiveSession session = worker.session();
    SessionSnapshot pending;
    try {
      pending = chain.handOff(store, session.id(), RandomIds.uuid(), worker::handedOver);
    } catch (BatonException e) {
      work.cancel();
      return failedOutput(e);
    }
    handedOff.complete(pending.snapshotId());
    DetachedRun run =
        new DetachedRun(
            agent,
            store,
            chain.storeContext(),
            pending,
            session,
            work,
            worker.result(),
            worker::lastTurnReason,
            follower);
    run.start();
    // The detached run carries the work on, and the instance tracks it from here.
    admission.close();
    // Inputs already queued still run; nothing more can arrive.
    closeInput();
    return AgentOutput.detached(session.id(), pending.snapshotId());
  }

  /** Whether the agent can run work in the background: its store tells a worker of aborts. */
  private boolean canDetach() {
    return agent.store() instanceof SnapshotSubscriber;
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
}
