package dev.baton.agent;

import dev.baton.core.ActionContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
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
public final class RemoteAgentOptions {
  /** How long a turn or companion call may take, unless set: ten minutes. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  /** How long a turn's stream may stay silent, unless set: five minutes. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);

  /**
   * Nothing declared (no description; state management and abort support unknown), no extra
   * headers, the default routes and timings, a client of Baton's own.
   */
  public static final RemoteAgentOptions DEFAULTS = builder().build();

  private final @Nullable String description;
  private final @Nullable StateManagement stateManagement;
  private final @Nullable Boolean abortable;
  private final Map<String, String> headers;
  private final @Nullable Function<ActionContext, Map<String, String>> headerFunction;
  private final @Nullable URI getSnapshotUrl;
  private final @Nullable URI waitForSnapshotUrl;
  private final @Nullable URI abortUrl;
  private final Duration timeout;
  private final Duration idleTimeout;
  private final Duration waitPollInterval;
  private final @Nullable HttpClient httpClient;

  private RemoteAgentOptions(Builder b) {
    this.description = b.description;
    this.stateManagement = b.stateManagement;
    this.abortable = b.abortable;
    this.headers = Map.copyOf(b.headers);
    this.headerFunction = b.headerFunction;
    this.getSnapshotUrl = b.getSnapshotUrl;
    this.waitForSnapshotUrl = b.waitForSnapshotUrl;
    this.abortUrl = b.abortUrl;
    this.timeout = b.timeout == null ? DEFAULT_TIMEOUT : b.timeout;
    this.idleTimeout = b.idleTimeout == null ? DEFAULT_IDLE_TIMEOUT : b.idleTimeout;
    this.waitPollInterval =
        b.waitPollInterval == null ? AgentOptions.DEFAULT_WAIT_POLL_INTERVAL : b.waitPollInterval;
    this.httpClient = b.httpClient;
    if (!timeout.isPositive() || !idleTimeout.isPositive() || !waitPollInterval.isPositive()) {
      throw new IllegalArgumentException(
          "the timeout, the idle timeout and the wait poll interval must be positive");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** What the agent does, or null; orchestrators show it to their models. */
  public @Nullable String description() {
    return description;
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

  /**
   * The headers of a request made under {@code context}: the static ones, then those the header
   * function computes for this request (which win on a clash).
   */
  public Map<String, String> headers(ActionContext context) {
    if (headerFunction == null) {
      return headers;
    }
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.putAll(headerFunction.apply(context));
    return all;
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
   * How long one call may take from sending the request to the end of the answer (default ten
   * minutes); a waitForSnapshot that is still waiting then starts a new call rather than failing.
   */
  public Duration timeout() {
    return timeout;
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
   * How often a wait polls getSnapshot when the server has no waitForSnapshot route (Genkit JS),
   * and how long a wait pauses before calling the route again after a call ran out (default 2 s).
   */
  public Duration waitPollInterval() {
    return waitPollInterval;
  }

  /** The client to send requests with, or null for a client of Baton's own. */
  public @Nullable HttpClient httpClient() {
    return httpClient;
  }

  /** Collects options, each at most once. Not thread-safe. */
  public static final class Builder {
    private @Nullable String description;
    private @Nullable StateManagement stateManagement;
    private @Nullable Boolean abortable;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private @Nullable Function<ActionContext, Map<String, String>> headerFunction;
    private @Nullable URI getSnapshotUrl;
    private @Nullable URI waitForSnapshotUrl;
    private @Nullable URI abortUrl;
    private @Nullable Duration timeout;
    private @Nullable Duration idleTimeout;
    private @Nullable Duration waitPollInterval;
    private @Nullable HttpClient httpClient;

    private Builder() {}

    private static void once(@Nullable Object current, String option) {
      if (current != null) {
        throw new IllegalStateException("cannot set " + option + " more than once");
      }
    }

    public Builder description(String description) {
      once(this.description, "description");
      this.description = Objects.requireNonNull(description, "description");
      return this;
    }

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

    /** Adds a header every request carries, such as a fixed API key. */
    public Builder header(String name, String value) {
      once(headers.get(Objects.requireNonNull(name, "name")), "header " + name);
      headers.put(name, Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Computes headers for each request, from the context of the call that makes it: a token that
     * expires, or the caller's own credentials passed on.
     */
    public Builder headers(Function<ActionContext, Map<String, String>> headers) {
      once(headerFunction, "headers");
      this.headerFunction = Objects.requireNonNull(headers, "headers");
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

    public Builder timeout(Duration timeout) {
      once(this.timeout, "timeout");
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public Builder idleTimeout(Duration idleTimeout) {
      once(this.idleTimeout, "idleTimeout");
      this.idleTimeout = Objects.requireNonNull(idleTimeout, "idleTimeout");
      return this;
    }

    /** How often a wait polls a server without a waitForSnapshot route. */
    public Builder waitPollInterval(Duration interval) {
      once(waitPollInterval, "waitPollInterval");
      this.waitPollInterval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /** Sends requests with this client (its proxy, TLS and connect timeout settings apply). */
    public Builder httpClient(HttpClient client) {
      once(httpClient, "httpClient");
      this.httpClient = Objects.requireNonNull(client, "client");
      return this;
    }

    public RemoteAgentOptions build() {
      return new RemoteAgentOptions(this);
    }
  }
}
