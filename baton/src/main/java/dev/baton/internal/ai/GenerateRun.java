package dev.baton.internal.ai;

import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.ContextKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * One generate call as a middleware may watch it beyond its hooks. While the call builds its
 * middleware's hooks, {@code newHooks} finds it on the context it is given ({@link #of}) and may:
 *
 * <ul>
 *   <li>read the call's options, the conversation and resume included ({@link #options});
 *   <li>hear the usage of every model call made under the call ({@link #listen}): the loop's own,
 *       its hooks', nested generates' and those of the in-process agents its tools run, in the
 *       foreground or the background, for as long as the call lasts and not after;
 *   <li>check the run before each model call of the tool loop ({@link #checkModelCalls}): before
 *       the generate hooks, so none of them calls a model for an iteration the check stops, and
 *       again after them, outside every {@code wrapModel} hook, so retry and fallback middleware
 *       never see the stop; and before the loop applies a resume ({@link #checkResume}), before any
 *       restarted tool runs. A check that returns a {@link Stop} ends the run with the exception
 *       the stop makes from the partial response, which {@link #stoppedWith} recognises;
 *   <li>amend the run's final message ({@link #amendFinalMessage}): the model message it returns or
 *       is interrupted on, or, when a check stops it, the last model message of its conversation;
 *   <li>have the loop answer the model's bad tool calls instead of failing ({@link
 *       #answerBadToolCalls}).
 * </ul>
 *
 * <p>Registration closes once the hooks are built; every registration applies in the order the
 * middleware are listed. The loop drives the rest. Thread-safe once closed: checks and amendments
 * run on the loop's thread, listeners on whichever thread made a call.
 */
public final class GenerateRun {
  /**
   * Why a check stops the run: makes the exception the run stops with (a budget's, say) from the
   * run as it stood, its partial response.
   */
  @FunctionalInterface
  public interface Stop {
    BatonException exception(GenerateResponse partialResponse);
  }

  static final ContextKey<GenerateRun> KEY = ContextKey.of("baton.generateRun", GenerateRun.class);

  private final GenerateOptions options;
  private final List<UsageListener> listeners = new ArrayList<>();
  private final List<Supplier<@Nullable Stop>> modelCallChecks = new ArrayList<>();
  private final List<Supplier<@Nullable Stop>> resumeChecks = new ArrayList<>();
  private final List<UnaryOperator<Message>> finalMessage = new ArrayList<>();
  private @Nullable Integer badToolCallRetries;
  private volatile boolean open = true;
  private volatile boolean ended;

  GenerateRun(GenerateOptions options) {
    this.options = options;
  }

  /** The generate call whose hooks are being built under this context, if any. */
  public static Optional<GenerateRun> of(ActionContext context) {
    return context.get(KEY);
  }

  public GenerateOptions options() {
    return options;
  }

  /** Hears every model call made under the call until it ends; must be thread-safe. */
  public void listen(UsageListener listener) {
    requireOpen();
    listeners.add(listener);
  }

  /**
   * Runs {@code check} before each model call of the tool loop, before the generate hooks and again
   * after them, so it should only read the run's state; null lets the call go on.
   */
  public void checkModelCalls(Supplier<@Nullable Stop> check) {
    requireOpen();
    modelCallChecks.add(check);
  }

  /** Runs {@code check} before a resume is applied; null lets the resume go on. */
  public void checkResume(Supplier<@Nullable Stop> check) {
    requireOpen();
    resumeChecks.add(check);
  }

  /** Amends the run's final message, however the run ends short of failing. */
  public void amendFinalMessage(UnaryOperator<Message> amendment) {
    requireOpen();
    finalMessage.add(amendment);
  }

  /**
   * Answers the model's bad tool calls with a tool response saying what is wrong, instead of
   * failing the call, for up to {@code maxRetries} model responses of the call (see {@link
   * BadToolCalls}). Asked more than once, the lowest bound holds.
   */
  public void answerBadToolCalls(int maxRetries) {
    requireOpen();
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must not be negative");
    }
    badToolCallRetries =
        badToolCallRetries == null ? maxRetries : Math.min(badToolCallRetries, maxRetries);
  }

  /** How many model responses' bad tool calls the loop answers: 0 unless a middleware asked. */
  int badToolCallRetries() {
    return badToolCallRetries == null ? 0 : badToolCallRetries;
  }

  private void requireOpen() {
    if (!open) {
      throw new IllegalStateException("a generate call is watched only while its hooks are built");
    }
  }

  /** Ends registration and returns the context the call's work runs under. */
  ActionContext start(ActionContext context) {
    open = false;
    if (listeners.isEmpty()) {
      return context;
    }
    List<UsageListener> all = List.copyOf(listeners);
    return UsageListeners.hearAll(
        context,
        (model, usage) -> {
          if (!ended) {
            all.forEach(listener -> listener.onUsage(model, usage));
          }
        });
  }

  @Nullable Stop checkModelCall() {
    return firstStop(modelCallChecks);
  }

  @Nullable Stop checkResume() {
    return firstStop(resumeChecks);
  }

  private static @Nullable Stop firstStop(List<Supplier<@Nullable Stop>> checks) {
    for (Supplier<@Nullable Stop> check : checks) {
      Stop stop = check.get();
      if (stop != null) {
        return stop;
      }
    }
    return null;
  }

  Message amendFinal(Message message) {
    Message amended = message;
    for (UnaryOperator<Message> amendment : finalMessage) {
      amended = amendment.apply(amended);
    }
    return amended;
  }

  /**
   * The partial response of a run a check stopped, when {@code error} is the exception it stopped
   * with; empty for any other error, that of a run around a stopped one included (it fails). The
   * runtime reports a stopped run aborted, not failed, keeping its partial response.
   */
  public static Optional<GenerateResponse> stoppedWith(Throwable error) {
    for (Throwable suppressed : error.getSuppressed()) {
      if (suppressed instanceof StopMark mark) {
        return Optional.of(mark.partialResponse);
      }
    }
    return Optional.empty();
  }

  /**
   * The exception {@code stop} makes, marked as a stop. The mark, not the exception's type, tells
   * the runtime a stop from a failure: the types are the middleware's own, which the runtime below
   * them cannot name.
   */
  static BatonException stopWith(Stop stop, GenerateResponse partialResponse) {
    BatonException exception = stop.exception(partialResponse);
    exception.addSuppressed(new StopMark(partialResponse));
    return exception;
  }

  /** The mark of a stop: no stack trace, only the partial response. */
  private static final class StopMark extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient GenerateResponse partialResponse;

    StopMark(GenerateResponse partialResponse) {
      super("a run check stopped the run; it keeps its partial response", null, false, false);
      this.partialResponse = partialResponse;
    }
  }

  /** The call has ended: listeners hear no more, whatever still runs under it. */
  void end() {
    ended = true;
  }
}
