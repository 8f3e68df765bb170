package dev.baton.agent;

import dev.baton.core.ActionContext;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What the options of an agent served by another process over HTTP share, whatever protocol Baton
 * speaks with it ({@link RemoteAgentOptions} for Genkit's, {@code A2aAgentOptions} for A2A's): its
 * description, the headers each request carries, how long a call may take, how often a wait reads
 * the agent again, and the HTTP client. Each protocol's options add their own and are built with
 * their own builder, which offers these options too; each option may be set once, and a second call
 * is a programming error ({@link IllegalStateException}).
 *
 * <p>Extended by Baton's own option types only. Immutable and thread-safe (the header function and
 * the client it holds are shared as given).
 */
public abstract class HttpAgentOptions {
  /** How long one call may take, unless set: ten minutes. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  private final @Nullable String description;
  private final Map<String, String> headers;
  private final @Nullable Function<ActionContext, Map<String, String>> headerFunction;
  private final Duration timeout;
  private final Duration waitPollInterval;
  private final @Nullable HttpClient httpClient;

  /** Takes the shared options from the builder. */
  protected HttpAgentOptions(Builder<?, ?> b) {
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

  /**
   * What the agent does, as orchestrators show it to their models; null when not set (an agent that
   * describes itself, as an A2A agent's card does, then keeps its own description).
   */
  public @Nullable String description() {
    return description;
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

  /**
   * How long one call may take from sending the request to the end of the answer (default ten
   * minutes). A wait whose call runs out while the agent is still working starts a new call rather
   * than failing; a synchronous turn is one call, so keep this above the agent's longest turn.
   */
  public Duration timeout() {
    return timeout;
  }

  /**
   * How often a wait reads the agent again when the agent cannot tell Baton that the work settled
   * (a Genkit JS server has no wait route; an A2A agent that does not stream, or whose stream
   * broke), and how long a wait pauses before calling again after a call ran out (default 2 s).
   */
  public Duration waitPollInterval() {
    return waitPollInterval;
  }

  /** The client to send requests with, or null for a client of Baton's own. */
  public @Nullable HttpClient httpClient() {
    return httpClient;
  }

  /**
   * Collects the shared options, each at most once. Not thread-safe.
   *
   * @param <B> the builder itself, which each setter returns
   * @param <O> the options it builds
   */
  public abstract static class Builder<B extends Builder<B, O>, O extends HttpAgentOptions> {
    private @Nullable String description;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private @Nullable Function<ActionContext, Map<String, String>> headerFunction;
    private @Nullable Duration timeout;
    private @Nullable Duration waitPollInterval;
    private @Nullable HttpClient httpClient;

    /** For the builders of Baton's option types. */
    protected Builder() {}

    /**
     * Refuses a second setting of an option.
     *
     * @throws IllegalStateException when {@code current} is already set
     */
    static void once(@Nullable Object current, String option) {
      if (current != null) {
        throw new IllegalStateException("cannot set " + option + " more than once");
      }
    }

    /** Describes the agent to orchestrators' models; see {@link HttpAgentOptions#description()}. */
    public B description(String description) {
      once(this.description, "description");
      this.description = Objects.requireNonNull(description, "description");
      return self();
    }

    /** Adds a header every request carries, such as a fixed API key. */
    public B header(String name, String value) {
      once(headers.get(Objects.requireNonNull(name, "name")), "header " + name);
      headers.put(name, Objects.requireNonNull(value, "value"));
      return self();
    }

    /**
     * Computes headers for each request, from the context of the call that makes it: a token that
     * expires, or the caller's own credentials passed on.
     */
    public B headers(Function<ActionContext, Map<String, String>> headers) {
      once(headerFunction, "headers");
      this.headerFunction = Objects.requireNonNull(headers, "headers");
      return self();
    }

    /** How long one call may take; see {@link HttpAgentOptions#timeout()}. */
    public B timeout(Duration timeout) {
      once(this.timeout, "timeout");
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return self();
    }

    /** How often a wait reads the agent again; see {@link HttpAgentOptions#waitPollInterval()}. */
    public B waitPollInterval(Duration interval) {
      once(waitPollInterval, "waitPollInterval");
      this.waitPollInterval = Objects.requireNonNull(interval, "interval");
      return self();
    }

    /** Sends requests with this client (its proxy, TLS and connect timeout settings apply). */
    public B httpClient(HttpClient client) {
      once(httpClient, "httpClient");
      this.httpClient = Objects.requireNonNull(client, "client");
      return self();
    }

    /** The options collected. */
    public abstract O build();

    @SuppressWarnings("unchecked") // B is this builder's own type, as each subclass declares it
    private B self() {
      return (B) this;
    }
  }
}
