package dev.baton.agent;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a remote agent is set up: what it does and supports (its description, state management and
 * whether it can abort background work, which Baton cannot ask its server), and how Baton talks to
 * it over HTTP (the headers each request carries, where its companion routes are, how long calls
 * may take, how often a wait polls a server without a wait route). Build with {@link #builder()};
 * each option may be set once, and a second call is a programming error ({@link
 * IllegalStateException}).
 *
 * <pre>{@code
 * Agent researcher = baton.defineRemoteAgent("researcher",
 *     URI.create("https://research.internal/agents/researcher"),
 *     RemoteAgentOptions.builder()
 *         .description("Researches one question.")
 *         .stateManagement(StateManagement.SERVER)
 *         .abortable(true)
 *         .headers(ctx -> Map.of("Authorization", "Bearer " + tokens.current()))
 *         .build());
 * }</pre>
 *
 * <p>Immutable and thread-safe (the header function and the client it holds are shared as given).
 */
public final class RemoteAgentOptions extends HttpAgentOptions {
  /** How long a turn's stream may stay silent, unless set: five minutes. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);

  /**
   * Nothing declared (no description; state management and abort support unknown), no extra
   * headers, the default routes and timings, a client of Baton's own.
   */
  public static final RemoteAgentOptions DEFAULTS = builder().build();

  private final @Nullable StateManagement stateManagement;
  private final @Nullable Boolean abortable;
  private final @Nullable URI getSnapshotUrl;
  private final @Nullable URI waitForSnapshotUrl;
  private final @Nullable URI abortUrl;
  private final Duration idleTimeout;

  private RemoteAgentOptions(Builder b) {
    super(b);
    this.stateManagement = b.stateManagement;
    this.abortable = b.abortable;
    this.getSnapshotUrl = b.getSnapshotUrl;
    this.waitForSnapshotUrl = b.waitForSnapshotUrl;
    this.abortUrl = b.abortUrl;
    this.idleTimeout = b.idleTimeout == null ? DEFAULT_IDLE_TIMEOUT : b.idleTimeout;
    if (!idleTimeout.isPositive()) {
      throw new IllegalArgumentException("the idle timeout must be positive");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Whether the agent's server keeps its sessions ({@code SERVER}: Baton registers the snapshot
   * companions, which call the server's routes) or the client does ({@code CLIENT}: it registers
   * none); null when not declared, which Baton treats as server-managed.
   */
  public @Nullable StateManagement stateManagement() {
    return stateManagement;
  }

  /**
   * Whether the agent's server can abort background work; null when not declared, which Baton
   * treats as abortable (a server without an abort route then answers an abort with {@code
   * FAILED_PRECONDITION}).
   */
  public @Nullable Boolean abortable() {
    return abortable;
  }

  /** The getSnapshot route, or null for {@code <url>/getSnapshot}. */
  public @Nullable URI getSnapshotUrl() {
    return getSnapshotUrl;
  }

  /** The waitForSnapshot route, or null for {@code <url>/waitForSnapshot}. */
  public @Nullable URI waitForSnapshotUrl() {
    return waitForSnapshotUrl;
  }

  /** The abort route, or null for {@code <url>/abort}. */
  public @Nullable URI abortUrl() {
    return abortUrl;
  }

  /**
   * How long a turn's stream may send nothing before the call is given up with {@code
   * DEADLINE_EXCEEDED} (default five minutes). A Baton server sends a keep-alive comment every few
   * seconds; a Genkit JS or Go server sends nothing between chunks, so keep this above the longest
   * silence of its model.
   */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /**
   * Collects options, each at most once; the shared ones are {@link HttpAgentOptions.Builder}'s.
   * Not thread-safe.
   */
  public static final class Builder extends HttpAgentOptions.Builder<Builder, RemoteAgentOptions> {
    private @Nullable StateManagement stateManagement;
    private @Nullable Boolean abortable;
    private @Nullable URI getSnapshotUrl;
    private @Nullable URI waitForSnapshotUrl;
    private @Nullable URI abortUrl;
    private @Nullable Duration idleTimeout;

    private Builder() {}

    /**
     * Declares who keeps the agent's sessions; see {@link RemoteAgentOptions#stateManagement()}.
     */
    public Builder stateManagement(StateManagement stateManagement) {
      once(this.stateManagement, "stateManagement");
      this.stateManagement = Objects.requireNonNull(stateManagement, "stateManagement");
      return this;
    }

    /** Declares whether the server can abort background work. */
    public Builder abortable(boolean abortable) {
      once(this.abortable, "abortable");
      this.abortable = abortable;
      return this;
    }

    public Builder getSnapshotUrl(URI url) {
      once(getSnapshotUrl, "getSnapshotUrl");
      this.getSnapshotUrl = Objects.requireNonNull(url, "url");
      return this;
    }

    public Builder waitForSnapshotUrl(URI url) {
      once(waitForSnapshotUrl, "waitForSnapshotUrl");
      this.waitForSnapshotUrl = Objects.requireNonNull(url, "url");
      return this;
    }

    public Builder abortUrl(URI url) {
      once(abortUrl, "abortUrl");
      this.abortUrl = Objects.requireNonNull(url, "url");
      return this;
    }

    public Builder idleTimeout(Duration idleTimeout) {
      once(this.idleTimeout, "idleTimeout");
      this.idleTimeout = Objects.requireNonNull(idleTimeout, "idleTimeout");
      return this;
    }

    @Override
    public RemoteAgentOptions build() {
      return new RemoteAgentOptions(this);
    }
  }
}
