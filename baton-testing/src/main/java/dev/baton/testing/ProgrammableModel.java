package dev.baton.testing;

import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.Model;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Role;
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
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A model that plays a script, for tests: each call takes the next scripted step, streams its
 * chunks, and answers its response, fails, or waits for a latch first. Every request is recorded. A
 * step can also wait for the request it answers ({@link #when}), which is how a test scripts
 * concurrent calls whose order is not known. With the script used up it falls back to a handler, if
 * one is set, or fails with {@code FAILED_PRECONDITION}.
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
  private final List<Step> matching = new CopyOnWriteArrayList<>();
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
      script.add(new Step(List.of(), response, null, null, null, null));
    }
    return this;
  }

  /** Queues a text answer with finish reason stop. */
  public ProgrammableModel respondText(String text) {
    return respond(ModelResponse.of(Message.model(text), FinishReason.STOP));
  }

  /** Starts a scripted step with more than a response (chunks, a failure, a gate). */
  public StepBuilder step() {
    return new StepBuilder(null);
  }

  /**
   * Starts a step that answers the first request it matches, whatever its place in the script:
   * matching steps are tried before the queued ones, each used once.
   */
  public StepBuilder when(Predicate<ModelRequest> matches) {
    return new StepBuilder(matches);
  }

  /** The text of a request's last user message: what a step usually matches on. */
  public static String lastUserText(ModelRequest request) {
    List<Message> messages = request.messages();
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.USER) {
        return messages.get(i).text();
      }
    }
    return "";
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
    matching.clear();
    requests.clear();
  }

  private ModelResponse call(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    requests.add(request);
    Step step = takeMatching(request);
    if (step == null) {
      step = script.poll();
    }
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

  // A CopyOnWriteArrayList iterates over a snapshot, and remove() tells which caller took a step.
  @SuppressWarnings("ModifyCollectionInEnhancedForLoop")
  private @Nullable Step takeMatching(ModelRequest request) {
    for (Step step : matching) {
      if (Objects.requireNonNull(step.matches).test(request) && matching.remove(step)) {
        return step;
      }
    }
    return null;
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
      @Nullable CountDownLatch entered,
      @Nullable Predicate<ModelRequest> matches) {}

  /** Builds one scripted step. Not thread-safe. */
  public final class StepBuilder {
    private final List<ModelResponseChunk> chunks = new ArrayList<>();
    private @Nullable CountDownLatch gate;
    private @Nullable CountDownLatch entered;
    private final @Nullable Predicate<ModelRequest> matches;

    private StepBuilder(@Nullable Predicate<ModelRequest> matches) {
      this.matches = matches;
    }

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
      return add(new Step(List.copyOf(chunks), response, null, gate, entered, matches));
    }

    /** Ends the step with a text answer and finish reason stop. */
    public ProgrammableModel respondText(String text) {
      return respond(ModelResponse.of(Message.model(text), FinishReason.STOP));
    }

    /** Ends the step with a failure. */
    public ProgrammableModel fail(RuntimeException failure) {
      return add(new Step(List.copyOf(chunks), null, failure, gate, entered, matches));
    }

    private ProgrammableModel add(Step step) {
      if (matches != null) {
        matching.add(step);
      } else {
        script.add(step);
      }
      return ProgrammableModel.this;
    }
  }
}
