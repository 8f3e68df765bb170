package dev.baton.a2a;

import dev.baton.agent.AgentOptions;
import dev.baton.core.ActionContext;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How an A2A agent is set up as a Baton sub-agent: its description, if not the card's, and how
 * Baton talks to it (the headers each request carries, how long a call may take, how often a wait
 * reads the task). Build with {@link #builder()}; each option may be set once, and a second call is
 * a programming error ({@link IllegalStateException}).
 *
 * <pre>{@code
 * Agent researcher = A2aAgents.define(baton, "researcher",
 *     URI.create("https://research.example/.well-known/agent-card.json"),
 *     A2aAgentOptions.builder()
 *         .headers(ctx -> Map.of("Authorization", "Bearer " + tokens.current()))
 *         .build());
 * }</pre>
 *
 * <p>Immutable and thread-safe (the header function and the client it holds are shared as given).
 */
public final class A2aAgentOptions {
  /** How long one call may take, unless set: ten minutes, as for a remote agent. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  /** The card's description, no extra headers, the default timings, a client of Baton's own. */
  public static final A2aAgentOptions DEFAULTS = builder().build();

  private final @Nullable String description;
  private final Map<String, String> headers;
  private final @Nullable Function<ActionContext, Map<String, String>> headerFunction;
  private final Duration timeout;
  private final Duration waitPollInterval;
  private final @Nullable HttpClient httpClient;

  private A2aAgentOptions(Builder b) {
    this.description = b.description;
    this.headers = Map.copyOf(b.headers);
    this.headerFunction = b.headerFunction;
    this.timeout = b.timeout == null ? DEFAULT_TIMEOUT : b.timeout;
    this.waitPollInterval =
        b.waitPollInterval == null ? AgentOptions.DEFAULT_WAIT_POLL_INTERVAL : b.waitPollInterval;
    this.httpClient = b.httpClient;
    if (!timeout.isPositive() || !waitPollInterval.isPositive()) {
      throw new IllegalArgumentException("the timeout and the wait poll interval must be positive");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * What the agent does, as orchestrators show it to their models; null to take the description of
   * its agent card.
   */
  public @Nullable String description() {
    return description;
  }

  /**
   * The headers of a request made under {@code context}: the static ones, then those the header
   * function computes for this request (which win on a clash). The card is read with them too, in
   * the context of the Baton instance.
   */
  public Map<String, String> headers(ActionContext context) {
    if (headerFunction == null) {
      return headers;
    }
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.putAll(headerFunction.apply(context));
    return all;
  }

  /**
   * How long one call may take from sending the request to the end of the answer (default ten
   * minutes). A synchronous delegation is one call: keep this above the agent's longest task.
   */
  public Duration timeout() {
    return timeout;
  }

  /**
   * How often a wait reads the task ({@code tasks/get}) until it settles (default 2 s), and how
   * often a blocking send that came back before its task settled reads it.
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
    private final Map<String, String> headers = new LinkedHashMap<>();
    private @Nullable Function<ActionContext, Map<String, String>> headerFunction;
    private @Nullable Duration timeout;
    private @Nullable Duration waitPollInterval;
    private @Nullable HttpClient httpClient;

    private Builder() {}

    private static void once(@Nullable Object current, String option) {
      if (current != null) {
        throw new IllegalStateException("cannot set " + option + " more than once");
      }
    }

    /** Describes the agent in place of its card's description. */
    public Builder description(String description) {
      once(this.description, "description");
      this.description = Objects.requireNonNull(description, "description");
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

    public Builder timeout(Duration timeout) {
      once(this.timeout, "timeout");
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** How often a wait reads the task until it settles. */
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

    public A2aAgentOptions build() {
      return new A2aAgentOptions(this);
    }
  }
}
