package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.ai.Hooks;
import dev.baton.ai.Middleware;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.internal.core.Defaulted;
import dev.baton.internal.core.Timing;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * Retries failed model calls with exponential backoff.
 *
 * <p>A call that fails with one of {@link #statuses} is tried again, up to {@link #maxRetries}
 * times. The n-th retry waits {@code initialDelayMs * backoffFactor^(n-1)}, capped at {@code
 * maxDelayMs}, with full jitter (a random wait between zero and that) unless {@code noJitter}. A
 * {@code retryAfterSeconds} in the error's details (model plugins set it from HTTP Retry-After) is
 * honoured as a minimum, within the cap. Waits end early when the call is cancelled.
 *
 * <p>List it after middleware that rewrites the request (ContextCompression), so every retry sends
 * the rewritten request. A streaming attempt that fails midway has already streamed its chunks, and
 * the retry streams its own: a streaming client may see a partial answer, then the whole one.
 * Immutable and thread-safe.
 *
 * @param maxRetries retries after the first attempt; default 3
 * @param statuses statuses worth retrying; default UNAVAILABLE, RESOURCE_EXHAUSTED,
 *     DEADLINE_EXCEEDED
 * @param initialDelayMs the first retry's delay bound; default 1000
 * @param maxDelayMs the cap on any delay; default 60000
 * @param backoffFactor the growth of the delay bound per retry; default 2
 * @param noJitter wait the full bound instead of a random part of it
 */
public record Retry(
    @Defaulted @JsonPropertyDescription("Retries after the first attempt. Defaults to 3.")
        int maxRetries,
    @JsonPropertyDescription(
            "Status names worth retrying. Defaults to UNAVAILABLE, RESOURCE_EXHAUSTED and"
                + " DEADLINE_EXCEEDED.")
        List<Status> statuses,
    @Defaulted
        @JsonPropertyDescription(
            "Upper bound of the first retry's delay, in milliseconds. Defaults to 1000.")
        long initialDelayMs,
    @Defaulted
        @JsonPropertyDescription("Cap on any retry delay, in milliseconds. Defaults to 60000.")
        long maxDelayMs,
    @Defaulted @JsonPropertyDescription("Growth of the delay bound per retry. Defaults to 2.")
        double backoffFactor,
    @Defaulted @JsonPropertyDescription("Wait the full delay bound instead of a random part of it.")
        boolean noJitter)
    implements Middleware {

  public static final List<Status> DEFAULT_STATUSES =
      List.of(Status.UNAVAILABLE, Status.RESOURCE_EXHAUSTED, Status.DEADLINE_EXCEEDED);

  public Retry {
    statuses = statuses == null ? DEFAULT_STATUSES : List.copyOf(statuses);
    if (maxRetries < 0 || initialDelayMs < 0 || maxDelayMs < 0 || backoffFactor < 1) {
      throw BatonException.invalidArgument(
          "retry needs maxRetries, initialDelayMs and maxDelayMs >= 0 and backoffFactor >= 1");
    }
  }

  /** Retry with the defaults. */
  public Retry() {
    this(3, DEFAULT_STATUSES, 1000, 60_000, 2, false);
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return "genkit-middleware/retry";
  }

  @Override
  public Hooks newHooks(ActionContext context) {
    Set<Status> retryable = Set.copyOf(statuses);
    return Hooks.builder()
        .wrapModel(
            (ctx, params, next) -> {
              for (int attempt = 0; ; attempt++) {
                try {
                  return next.apply(ctx, params);
                } catch (BatonException e) {
                  if (attempt >= maxRetries || !retryable.contains(e.status())) {
                    throw e;
                  }
                  Timing.of(ctx)
                      .pause(ctx.cancellation(), Duration.ofMillis(delayMillis(attempt, e)));
                }
              }
            })
        .build();
  }

  /** The wait before retry number {@code attempt + 1}. */
  long delayMillis(int attempt, BatonException error) {
    double bound = Math.min((double) maxDelayMs, initialDelayMs * Math.pow(backoffFactor, attempt));
    long delay =
        noJitter ? (long) bound : (long) (ThreadLocalRandom.current().nextDouble() * bound);
    Long retryAfter = retryAfterMillis(error);
    return retryAfter == null ? delay : Math.min(maxDelayMs, Math.max(delay, retryAfter));
  }

  private static @Nullable Long retryAfterMillis(BatonException error) {
    var details = error.details();
    if (details == null || !details.path("retryAfterSeconds").isNumber()) {
      return null;
    }
    return (long) (details.path("retryAfterSeconds").asDouble() * 1000);
  }

  /** Builds a {@link Retry}; unset fields keep the defaults. Not thread-safe. */
  public static final class Builder {
    private int maxRetries = 3;
    private List<Status> statuses = DEFAULT_STATUSES;
    private long initialDelayMs = 1000;
    private long maxDelayMs = 60_000;
    private double backoffFactor = 2;
    private boolean noJitter;

    private Builder() {}

    public Builder maxRetries(int maxRetries) {
      this.maxRetries = maxRetries;
      return this;
    }

    public Builder statuses(Status... statuses) {
      this.statuses = List.of(statuses);
      return this;
    }

    public Builder initialDelayMs(long initialDelayMs) {
      this.initialDelayMs = initialDelayMs;
      return this;
    }

    public Builder maxDelayMs(long maxDelayMs) {
      this.maxDelayMs = maxDelayMs;
      return this;
    }

    public Builder backoffFactor(double backoffFactor) {
      this.backoffFactor = backoffFactor;
      return this;
    }

    public Builder noJitter(boolean noJitter) {
      this.noJitter = noJitter;
      return this;
    }

    public Retry build() {
      return new Retry(maxRetries, statuses, initialDelayMs, maxDelayMs, backoffFactor, noJitter);
    }
  }
}
