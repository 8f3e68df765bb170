package dev.baton.testing;

import dev.baton.ai.Message;
import dev.baton.ai.Model;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A model that plays a script, for tests: each call takes the next scripted step, streams its
 * chunks, and answers its response, fails, or waits for a latch first. Every request is recorded.
 * With the script used up it falls back to a handler, if one is set, or fails with {@code
 * FAILED_PRECONDITION}.
 *
 * <pre>{@code
 * ProgrammableModel model = ProgrammableModel.define(baton.registry(), "programmableModel");
 * model.respond(ModelResponse.of(Message.model("hello"), FinishReason.STOP));
 * model.step().chunks(ModelResponseChunk.text("he"), ModelResponseChunk.text("llo")).respond(...);
 * }</pre>
 *
 * <p>Thread-safe: concurrent calls take distinct steps.
 */
public final class ProgrammableModel {
  private final Model model;
  private final ConcurrentLinkedQueue<Step> script = new ConcurrentLinkedQueue<>();
  private final List<ModelRequest> requests = new CopyOnWriteArrayList<>();
  private volatile @Nullable Function<ModelRequest, ModelResponse> fallback;

  private ProgrammableModel(String name, ModelInfo info) {
    this.model = Model.create(name, info, this::call);
  }

  /** Registers a programmable model that supports everything (tools, system role, JSON output). */
  public static ProgrammableModel define(Registry registry, String name) {
    return define(registry, name, ModelInfo.full(name));
  }

  /** Registers a programmable model with the given capabilities. */
  public static ProgrammableModel define(Registry registry, String name, ModelInfo info) {
    ProgrammableModel programmable = new ProgrammableModel(name, info);
    registry.register(programmable.model);
    return programmable;
  }

  public Model model() {
    return model;
  }

  public String name() {
    return model.name();
  }

  /** Queues responses, one per call. */
  public ProgrammableModel respond(ModelResponse... responses) {
    for (ModelResponse response : responses) {
      script.add(new Step(List.of(), response, null, null, null));
    }
    return this;
  }

  /** Queues a text answer with finish reason stop. */
  public ProgrammableModel respondText(String text) {
    return respond(ModelResponse.of(Message.model(text), dev.baton.ai.FinishReason.STOP));
  }

  /** Starts a scripted step with more than a response (chunks, a failure, a gate). */
  public StepBuilder step() {
    return new StepBuilder();
  }

  /** Answers calls the script does not cover. */
  public ProgrammableModel fallback(Function<ModelRequest, ModelResponse> handler) {
    this.fallback = handler;
    return this;
  }

  /** Every request received, in arrival order. */
  public List<ModelRequest> requests() {
    return List.copyOf(requests);
  }

  /** The last request received. */
  public ModelRequest lastRequest() {
    if (requests.isEmpty()) {
      throw new IllegalStateException("the model has not been called");
    }
    return requests.get(requests.size() - 1);
  }

  /** The number of calls so far. */
  public int calls() {
    return requests.size();
  }

  /** Drops the remaining script and the recorded requests. */
  public void reset() {
    script.clear();
    requests.clear();
  }

  private ModelResponse call(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    requests.add(request);
    Step step = script.poll();
    if (step == null) {
      Function<ModelRequest, ModelResponse> handler = fallback;
      if (handler == null) {
        throw BatonException.of(
            Status.FAILED_PRECONDITION,
            "programmable model %s has no response scripted for call %d",
            model.name(),
            requests.size());
      }
      return handler.apply(request);
    }
    if (step.entered != null) {
      step.entered.countDown();
    }
    if (step.gate != null) {
      awaitGate(context, step.gate);
    }
    for (ModelResponseChunk chunk : step.chunks) {
      stream.onChunk(chunk);
    }
    if (step.failure != null) {
      throw step.failure;
    }
    return Objects.requireNonNull(step.response);
  }

  /** Waits for the gate, giving up when the call is cancelled. */
  private static void awaitGate(ActionContext context, CountDownLatch gate) {
    CountDownLatch either = new CountDownLatch(1);
    Thread opener =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    gate.await();
                    either.countDown();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    try (var onCancel = context.cancellation().onCancel(either::countDown)) {
      either.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BatonException.from(e);
    } finally {
      opener.interrupt();
    }
    context.cancellation().throwIfCancelled();
  }

  private record Step(
      List<ModelResponseChunk> chunks,
      @Nullable ModelResponse response,
      @Nullable RuntimeException failure,
      @Nullable CountDownLatch gate,
      @Nullable CountDownLatch entered) {}

  /** Builds one scripted step. Not thread-safe. */
  public final class StepBuilder {
    private final List<ModelResponseChunk> chunks = new ArrayList<>();
    private @Nullable CountDownLatch gate;
    private @Nullable CountDownLatch entered;

    private StepBuilder() {}

    /** Chunks streamed before the response, in order. */
    public StepBuilder chunks(ModelResponseChunk... chunks) {
      this.chunks.addAll(List.of(chunks));
      return this;
    }

    /** Chunks streamed before the response, in order. */
    public StepBuilder chunks(List<ModelResponseChunk> chunks) {
      this.chunks.addAll(chunks);
      return this;
    }

    /** Blocks the call until the gate opens (or the call is cancelled). */
    public StepBuilder blockUntil(CountDownLatch gate) {
      this.gate = gate;
      return this;
    }

    /** Counts the latch down when the call starts, before any gate. */
    public StepBuilder signalOnEntry(CountDownLatch entered) {
      this.entered = entered;
      return this;
    }

    /** Ends the step with a response. */
    public ProgrammableModel respond(ModelResponse response) {
      script.add(new Step(List.copyOf(chunks), response, null, gate, entered));
      return ProgrammableModel.this;
    }

    /** Ends the step with a failure. */
    public ProgrammableModel fail(RuntimeException failure) {
      script.add(new Step(List.copyOf(chunks), null, failure, gate, entered));
      return ProgrammableModel.this;
    }
  }
}
