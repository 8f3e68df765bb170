package dev.baton.agent;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * How an agent defined in this process is set up: its session store, description, custom state
 * type, transforms and timings. What it supports ({@link AgentMetadata}) follows from them. A
 * remote agent takes {@link RemoteAgentOptions} instead. Build with {@link #builder()}; every
 * option may be set once, and a second call is a programming error ({@link IllegalStateException}).
 *
 * <p>Immutable and thread-safe (the store and transforms it holds are shared as given).
 */
public final class AgentOptions {
  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(30);
  public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_WAIT_POLL_INTERVAL = Duration.ofSeconds(2);
  public static final Duration DEFAULT_WAIT_READ_TIMEOUT = Duration.ofSeconds(30);

  /** No store, no description: a client-managed agent. */
  public static final AgentOptions DEFAULTS = builder().build();

  private final @Nullable SessionStore sessionStore;
  private final @Nullable String description;
  private final @Nullable Class<?> stateType;
  private final @Nullable UnaryOperator<SessionState> stateTransform;
  private final @Nullable Function<AgentStreamChunk, @Nullable AgentStreamChunk> streamTransform;
  private final Duration heartbeatInterval;
  private final Duration heartbeatTimeout;
  private final Duration waitPollInterval;
  private final Duration waitReadTimeout;
  private final boolean usageTree;

  private AgentOptions(Builder b) {
    this.sessionStore = b.sessionStore;
    this.description = b.description;
    this.stateType = b.stateType;
    this.stateTransform = b.stateTransform;
    this.streamTransform = b.streamTransform;
    this.heartbeatInterval =
        b.heartbeatInterval == null ? DEFAULT_HEARTBEAT_INTERVAL : b.heartbeatInterval;
    this.heartbeatTimeout =
        b.heartbeatTimeout == null ? DEFAULT_HEARTBEAT_TIMEOUT : b.heartbeatTimeout;
    this.waitPollInterval =
        b.waitPollInterval == null ? DEFAULT_WAIT_POLL_INTERVAL : b.waitPollInterval;
    this.waitReadTimeout =
        b.waitReadTimeout == null ? DEFAULT_WAIT_READ_TIMEOUT : b.waitReadTimeout;
    this.usageTree = Boolean.TRUE.equals(b.usageTree);
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

  /**
   * The session store, or null: with one the agent is server-managed, and with a {@link
   * SnapshotSubscriber} store it can also detach and be aborted.
   */
  public @Nullable SessionStore sessionStore() {
    return sessionStore;
  }

  /** What the agent does, or null; orchestrators show it to their models. */
  public @Nullable String description() {
    return description;
  }

  /** The Java type of the custom state, published as {@code stateSchema}, or null. */
  public @Nullable Class<?> stateType() {
    return stateType;
  }

  /**
   * Shapes the state a client sees (output state, snapshots read through the agent, custom-state
   * patches); it gets a copy and may redact. Null for none.
   */
  public @Nullable UnaryOperator<SessionState> stateTransform() {
    return stateTransform;
  }

  /**
   * Shapes or drops (by returning null) each outbound chunk; it gets a copy, and a dropped chunk's
   * side effects still apply. Null for none.
   */
  public @Nullable Function<AgentStreamChunk, @Nullable AgentStreamChunk> streamTransform() {
    return streamTransform;
  }

  /**
   * How often a detached run refreshes its row (default 30 s), while it is pending and, after an
   * abort, while it saves its progress.
   */
  public Duration heartbeatInterval() {
    return heartbeatInterval;
  }

  /**
   * How old a pending row's heartbeat may get before reads report it {@code expired} (default 60
   * s); also how long an aborted run that does not stop goes on beating, so its row reads as still
   * saving for up to twice this long after the abort; and how long a store that fails transiently
   * ({@code UNAVAILABLE}, {@code ABORTED}, {@code DEADLINE_EXCEEDED}) is retried to save a turn's
   * end (after which the turn fails), a detached run's final row, or its watch for an abort.
   */
  public Duration heartbeatTimeout() {
    return heartbeatTimeout;
  }

  /**
   * How often {@code waitForSnapshot} re-reads a snapshot whose store cannot notify it, and how
   * soon after a failed read (default 2 s); with notifications it re-reads every heartbeat
   * interval.
   */
  public Duration waitPollInterval() {
    return waitPollInterval;
  }

  /**
   * How long one read of {@code waitForSnapshot} may take before it counts as a transient failure
   * (default 30 s).
   */
  public Duration waitReadTimeout() {
    return waitReadTimeout;
  }

  /**
   * Whether each turn records its usage tree ({@link AgentUsage}) on its final model message; off
   * by default.
   */
  public boolean usageTree() {
    return usageTree;
  }

  /** Collects options, each at most once. Not thread-safe. */
  public static final class Builder {
    private @Nullable SessionStore sessionStore;
    private @Nullable String description;
    private @Nullable Class<?> stateType;
    private @Nullable UnaryOperator<SessionState> stateTransform;
    private @Nullable Function<AgentStreamChunk, @Nullable AgentStreamChunk> streamTransform;
    private @Nullable Duration heartbeatInterval;
    private @Nullable Duration heartbeatTimeout;
    private @Nullable Duration waitPollInterval;
    private @Nullable Duration waitReadTimeout;
    private @Nullable Boolean usageTree;

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

    public Builder stateTransform(UnaryOperator<SessionState> transform) {
      once(stateTransform, "stateTransform");
      this.stateTransform = Objects.requireNonNull(transform, "transform");
      return this;
    }

    public Builder streamTransform(
        Function<AgentStreamChunk, @Nullable AgentStreamChunk> transform) {
      once(streamTransform, "streamTransform");
      this.streamTransform = Objects.requireNonNull(transform, "transform");
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

    /**
     * Records each turn's usage tree ({@link AgentUsage}) on its final model message: the agent's
     * own calls, and those of every agent it delegates to in this process, nested. Off by default.
     */
    public Builder usageTree(boolean usageTree) {
      once(this.usageTree, "usageTree");
      this.usageTree = usageTree;
      return this;
    }

    public AgentOptions build() {
      return new AgentOptions(this);
    }
  }
}
