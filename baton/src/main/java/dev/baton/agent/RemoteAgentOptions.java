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
 * How Baton talks to a remote agent over HTTP: the headers each request carries, where its
 * companion routes are, and how long calls may take. What the agent is and supports (description,
 * {@link AgentMetadata}) stays in {@link AgentOptions}. Build with {@link #builder()}; each option
 * may be set once.
 *
 * <pre>{@code
 * Agent researcher = baton.defineRemoteAgent("researcher",
 *     URI.create("https://research.internal/agents/researcher"),
 *     AgentOptions.builder().description("Researches one question.")
 *         .metadata(new AgentMetadata(StateManagement.SERVER, true)).build(),
 *     RemoteAgentOptions.builder()
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

  /** No extra headers, the default routes and timeouts, a client of Baton's own. */
  public static final RemoteAgentOptions DEFAULTS = builder().build();

  private final Map<String, String> headers;
  private final @Nullable Function<ActionContext, Map<String, String>> headerFunction;
  private final @Nullable URI getSnapshotUrl;
  private final @Nullable URI waitForSnapshotUrl;
  private final @Nullable URI abortUrl;
  private final Duration timeout;
  private final Duration idleTimeout;
  private final @Nullable HttpClient httpClient;

  private RemoteAgentOptions(Builder b) {
    this.headers = Map.copyOf(b.headers);
    this.headerFunction = b.headerFunction;
    this.getSnapshotUrl = b.getSnapshotUrl;
    this.waitForSnapshotUrl = b.waitForSnapshotUrl;
    this.abortUrl = b.abortUrl;
    this.timeout = b.timeout == null ? DEFAULT_TIMEOUT : b.timeout;
    this.idleTimeout = b.idleTimeout == null ? DEFAULT_IDLE_TIMEOUT : b.idleTimeout;
    this.httpClient = b.httpClient;
    if (!timeout.isPositive() || !idleTimeout.isPositive()) {
      throw new IllegalArgumentException("the timeout and the idle timeout must be positive");
    }
  }

  public static Builder builder() {
    return new Builder();
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

  /** The client to send requests with, or null for a client of Baton's own. */
  public @Nullable HttpClient httpClient() {
    return httpClient;
  }

  /** Collects options, each at most once. Not thread-safe. */
  public static final class Builder {
    private final Map<String, String> headers = new LinkedHashMap<>();
    private @Nullable Function<ActionContext, Map<String, String>> headerFunction;
    private @Nullable URI getSnapshotUrl;
    private @Nullable URI waitForSnapshotUrl;
    private @Nullable URI abortUrl;
    private @Nullable Duration timeout;
    private @Nullable Duration idleTimeout;
    private @Nullable HttpClient httpClient;

    private Builder() {}

    private static void once(@Nullable Object current, String option) {
      if (current != null) {
        throw new IllegalStateException("cannot set " + option + " more than once");
      }
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
