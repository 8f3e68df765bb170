package dev.baton.agent;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How an agent is set up. Every option may be set once; a second call is a programming error
 * ({@link IllegalStateException}).
 *
 * @param sessionStore makes the agent server-managed; with a {@link SnapshotSubscriber} store it
 *     can also detach and be aborted
 * @param description what the agent does; orchestrators show it to their models
 * @param stateType the Java type of the custom state, published as {@code stateSchema}
 * @param stateTransform shapes the state a client sees (output state, snapshots read through the
 *     agent, custom-state patches); it gets a copy and may redact
 * @param streamTransform shapes or drops each outbound chunk; it gets a copy
 * @param metadata declared capabilities, for a remote agent whose server Baton cannot inspect
 * @param heartbeatInterval how often a detached run refreshes its row (default 30 s), while it is
 *     pending and, after an abort, while it saves its progress
 * @param heartbeatTimeout how old a pending row's heartbeat may get before reads report it {@code
 *     expired} (default 60 s); also how long an aborted run that does not stop goes on beating, so
 *     its row reads as still saving for up to twice this long after the abort
 * @param waitPollInterval how often {@code waitForSnapshot} re-reads a snapshot whose store cannot
 *     notify it, and how soon after a failed read (default 2 s); with notifications it re-reads
 *     every {@code heartbeatInterval}
 * @param waitReadTimeout how long one read of {@code waitForSnapshot} may take before it counts as
 *     a transient failure (default 30 s)
 */
public record AgentOptions(
    @Nullable SessionStore sessionStore,
    @Nullable String description,
    @Nullable Class<?> stateType,
    @Nullable StateTransform stateTransform,
    @Nullable StreamTransform streamTransform,
    @Nullable AgentMetadata metadata,
    Duration heartbeatInterval,
    Duration heartbeatTimeout,
    Duration waitPollInterval,
    Duration waitReadTimeout) {

  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(30);
  public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_WAIT_POLL_INTERVAL = Duration.ofSeconds(2);
  public static final Duration DEFAULT_WAIT_READ_TIMEOUT = Duration.ofSeconds(30);

  /** No store, no description: a client-managed agent. */
  public static final AgentOptions DEFAULTS = builder().build();

  public AgentOptions {
    Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
    Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
    Objects.requireNonNull(waitPollInterval, "waitPollInterval");
    Objects.requireNonNull(waitReadTimeout, "waitReadTimeout");
    if (heartbeatInterval.isNegative()
        || heartbeatInterval.isZero()
        || heartbeatTimeout.compareTo(heartbeatInterval) <= 0
        || waitPollInterval.isNegative()
        || waitPollInterval.isZero()
        || waitReadTimeout.isNegative()
        || waitReadTimeout.isZero()) {
      throw new IllegalArgumentException(
          "heartbeat interval, wait poll interval and wait read timeout must be positive, and the"
              + " heartbeat timeout longer than the interval");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Shapes the session state a client sees. */
  @FunctionalInterface
  public interface StateTransform {
    SessionState apply(SessionState state);
  }

  /** Shapes an outbound chunk; null drops it from the wire (its side effects still apply). */
  @FunctionalInterface
  public interface StreamTransform {
    @Nullable AgentStreamChunk apply(AgentStreamChunk chunk);
  }

  /** Collects options, each at most once. Not thread-safe. */
  public static final class Builder {
    private @Nullable SessionStore sessionStore;
    private @Nullable String description;
    private @Nullable Class<?> stateType;
    private @Nullable StateTransform stateTransform;
    private @Nullable StreamTransform streamTransform;
    private @Nullable AgentMetadata metadata;
    private @Nullable Duration heartbeatInterval;
    private @Nullable Duration heartbeatTimeout;
    private @Nullable Duration waitPollInterval;
    private @Nullable Duration waitReadTimeout;

    private Builder() {}

    private static void once(@Nullable Object current, String option) {
      if (current != null) {
        throw new IllegalStateException("cannot set " + option + " more than once");
      }
    }

    public Builder sessionStore(SessionStore store) {
      once(sessionStore, "sessionStore");
      this.sessionStore = Objects.requireNonNull(store, "store");
      return this;
    }

    public Builder description(String description) {
      once(this.description, "description");
      this.description = Objects.requireNonNull(description, "description");
      return this;
    }

    public Builder stateType(Class<?> stateType) {
      once(this.stateType, "stateType");
      this.stateType = Objects.requireNonNull(stateType, "stateType");
      return this;
    }

    public Builder stateTransform(StateTransform transform) {
      once(stateTransform, "stateTransform");
      this.stateTransform = Objects.requireNonNull(transform, "transform");
      return this;
    }

    public Builder streamTransform(StreamTransform transform) {
      once(streamTransform, "streamTransform");
      this.streamTransform = Objects.requireNonNull(transform, "transform");
      return this;
    }

    public Builder metadata(AgentMetadata metadata) {
      once(this.metadata, "metadata");
      this.metadata = Objects.requireNonNull(metadata, "metadata");
      return this;
    }

    /** Heartbeat timings; tests shorten them to milliseconds. */
    public Builder heartbeat(Duration interval, Duration timeout) {
      once(heartbeatInterval, "heartbeat");
      this.heartbeatInterval = interval;
      this.heartbeatTimeout = timeout;
      return this;
    }

    /** How often {@code waitForSnapshot} polls without notifications, and after a failed read. */
    public Builder waitPollInterval(Duration interval) {
      once(waitPollInterval, "waitPollInterval");
      this.waitPollInterval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /** How long one read of {@code waitForSnapshot} may take before it counts as failed. */
    public Builder waitReadTimeout(Duration timeout) {
      once(waitReadTimeout, "waitReadTimeout");
      this.waitReadTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public AgentOptions build() {
      return new AgentOptions(
          sessionStore,
          description,
          stateType,
          stateTransform,
          streamTransform,
          metadata,
          heartbeatInterval == null ? DEFAULT_HEARTBEAT_INTERVAL : heartbeatInterval,
          heartbeatTimeout == null ? DEFAULT_HEARTBEAT_TIMEOUT : heartbeatTimeout,
          waitPollInterval == null ? DEFAULT_WAIT_POLL_INTERVAL : waitPollInterval,
          waitReadTimeout == null ? DEFAULT_WAIT_READ_TIMEOUT : waitReadTimeout);
    }
  }
}
