package dev.baton.server.internal.protocol;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import dev.baton.server.ContextProvider;
import dev.baton.server.internal.protocol.console.Console;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * Genkit's wire protocol for one Baton instance's agents and flows, whatever server carries it: a
 * binding finds the {@link #route} of a request's path and hands the request to {@link #serve} as a
 * {@link Transport}; the protocol runs it on a virtual thread of its own and answers through the
 * transport. What the protocol does on the wire is described on {@code BatonHandler}, its Jetty
 * binding.
 *
 * <p>The binding's owner starts it ({@link #start}) before requests arrive, and ends it with a
 * graceful {@link #shutdown} (new requests answered 503; requests and the instance's detached runs
 * get the grace; then the requests left are cancelled) and {@link #stop}. It can start again.
 *
 * <p>Thread-safe.
 */
public final class WireProtocol {
  /** The body size accepted unless set: 4 MiB. */
  public static final long DEFAULT_MAX_REQUEST_BYTES = 4L * 1024 * 1024;

  /** How often a keep-alive comment is sent unless set: every 15 seconds. */
  public static final Duration DEFAULT_KEEP_ALIVE_INTERVAL = Duration.ofSeconds(15);

  /** How long a shutdown waits for requests and detached runs unless set: 30 seconds. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);

  private final Baton baton;
  private final Exchange.Settings settings;
  private final Routes routes;
  private final Duration shutdownGrace;
  private final @Nullable Console console;
  // New on every start, so that a stopped protocol can start again.
  private volatile Drain drain;
  private volatile @Nullable ScheduledExecutorService keepAlives;

  private WireProtocol(Builder builder) {
    this.baton = builder.baton;
    this.drain = new Drain(baton);
    this.routes = builder.routes.build();
    this.shutdownGrace = builder.shutdownGrace;
    boolean expose =
        builder.exposeErrorMessages != null
            ? builder.exposeErrorMessages
            : Failures.exposeByDefault();
    this.settings =
        new Exchange.Settings(
            baton.registry(),
            List.copyOf(builder.providers),
            new RequestBody(builder.maxRequestBytes),
            new Failures(expose),
            builder.keepAliveInterval);
    this.console =
        builder.consolePath == null ? null : console(builder.consolePath, builder.consoleTokenKey);
  }

  private Console console(String path, byte @Nullable [] tokenKey) {
    Routes.checkPath(path);
    String first = path.split("/", 3)[1];
    if (first.equals("agents") || first.equals("flows")) {
      throw new IllegalArgumentException(
          "the console's path " + path + " is inside the default layout (/agents, /flows)");
    }
    Console console =
        new Console(
            path,
            baton.registry(),
            routes::servesAgent,
            settings.providers(),
            settings.failures(),
            tokenKey);
    for (String chosen : routes.chosenPaths()) {
      if (console.owns(chosen)) {
        throw new IllegalArgumentException(
            "the route " + chosen + " is taken: the console is served at " + path);
      }
    }
    return console;
  }

  /** A builder for the protocol of {@code baton}'s agents and flows; it mounts none until told. */
  public static Builder builder(Baton baton) {
    return new Builder(baton);
  }

  /** The route a request's path (within the binding's context) reaches, or null for none. */
  public @Nullable Route route(String path) {
    return routes.resolve(path);
  }

  /**
   * Serves a request on a virtual thread of its own, which ends it through the transport.
   *
   * @param boundAuth the auth context the binding took from its server, merged before the context
   *     providers' and checked as theirs are, or null
   * @return false, leaving the request untouched, when the protocol is not started
   */
  public boolean serve(Route route, Transport transport, @Nullable Map<String, ?> boundAuth) {
    ScheduledExecutorService timer = keepAlives;
    if (timer == null) {
      return false;
    }
    Exchange exchange = new Exchange(settings, drain, timer, route, transport, boundAuth);
    Thread.ofVirtual().name("baton-request " + route).start(exchange::run);
    return true;
  }

  /** Whether a request's path (within the binding's context) is the task console's. */
  public boolean isConsole(String path) {
    return console != null && console.owns(path);
  }

  /**
   * Serves a request to the task console on a virtual thread of its own, which ends it through the
   * transport. The console's requests are requests of the protocol: refused while it shuts down,
   * and cancelled when it gives up on them.
   *
   * @param boundAuth as for {@link #serve}
   * @return false, leaving the request untouched, when the protocol is not started or serves no
   *     console at the path
   */
  public boolean serveConsole(
      String path, Transport transport, @Nullable Map<String, ?> boundAuth) {
    Console served = console;
    if (served == null || !served.owns(path) || keepAlives == null) {
      return false;
    }
    Drain current = drain;
    Thread.ofVirtual()
        .name("baton-console " + path)
        .start(
            () -> {
              Cancellation cancellation = Cancellation.create();
              if (!current.enter(cancellation)) {
                served.refuse(
                    transport,
                    BatonException.of(Status.UNAVAILABLE, "the server is shutting down"));
                return;
              }
              try {
                served.serve(path, transport, boundAuth, cancellation, current::isDraining);
              } finally {
                current.exit(cancellation);
              }
            });
    return true;
  }

  /**
   * Answers a request to the console that the binding cannot hand it (its own authentication
   * refused the caller, say) with the console's JSON error, on the caller's thread, and ends it.
   */
  public void refuseConsole(Transport transport, Throwable failure) {
    Objects.requireNonNull(console, "no console is served").refuse(transport, failure);
  }

  /**
   * Answers a request the protocol does not serve (no route at its path, a binding's own failure)
   * with the failure's HTTP status and Genkit's JSON error body, as an exchange's error answers
   * are, on the caller's thread, and ends it.
   */
  public void refuse(Transport transport, Throwable failure) {
    BatonException error = settings.failures().classify(failure);
    Exchange.writeJson(
        transport, error.status().httpStatus(), settings.failures().body(error), false);
  }

  /** Whether requests run context providers, which read credentials from headers. */
  public boolean hasContextProviders() {
    return !settings.providers().isEmpty();
  }

  /** Starts serving (or again, after {@link #stop}). */
  public synchronized void start() {
    if (keepAlives != null) {
      return;
    }
    drain = new Drain(baton);
    keepAlives =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("baton-keep-alive").factory());
  }

  /**
   * Starts a graceful shutdown: new requests are refused with 503, and the future completes when
   * the requests and the instance's agent work are done, or when the grace is over and the requests
   * left have been cancelled.
   */
  public CompletableFuture<Void> shutdown() {
    return shutdown(shutdownGrace);
  }

  /**
   * Starts a graceful shutdown as {@link #shutdown()} does, with {@code grace} in place of the
   * protocol's own: for an owner whose shutdown runs against a deadline of its own.
   */
  public CompletableFuture<Void> shutdown(Duration grace) {
    return drain.shutdown(grace);
  }

  /** Whether a shutdown has begun. */
  public boolean isShutdown() {
    return drain.isDraining();
  }

  /** Stops at once: the requests still running are cancelled; detached runs go on. */
  public synchronized void stop() {
    drain.cancelAll();
    ScheduledExecutorService timer = keepAlives;
    keepAlives = null;
    if (timer != null) {
      timer.shutdownNow();
    }
  }

  /** How long a graceful shutdown waits for requests and detached runs. */
  public Duration shutdownGrace() {
    return shutdownGrace;
  }

  /** Configures a {@link WireProtocol}; the options are {@code BatonHandler.Builder}'s. */
  public static final class Builder {
    private final Baton baton;
    private final Routes.Builder routes = Routes.builder();
    private final List<ContextProvider> providers = new ArrayList<>();
    private long maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
    private Duration keepAliveInterval = DEFAULT_KEEP_ALIVE_INTERVAL;
    private Duration shutdownGrace = DEFAULT_SHUTDOWN_GRACE;
    private @Nullable Boolean exposeErrorMessages;
    private @Nullable String consolePath;
    private byte @Nullable [] consoleTokenKey;

    private Builder(Baton baton) {
      this.baton = Objects.requireNonNull(baton, "baton");
    }

    /** Serves every local agent; remote ones only when named (see {@code BatonHandler}). */
    public Builder allAgents() {
      routes.allAgents();
      return this;
    }

    /** Serves these agents at {@code /agents/<name>}, with their companions. */
    public Builder agents(List<String> names) {
      routes.agents(names);
      return this;
    }

    /** Serves an agent, and its companions, at a route of the application's choosing. */
    public Builder agentAt(String route, String name) {
      routes.agentAt(route, name);
      return this;
    }

    /** Serves every flow. */
    public Builder allFlows() {
      routes.allFlows();
      return this;
    }

    /** Serves these flows at {@code /flows/<name>}. */
    public Builder flows(List<String> names) {
      routes.flows(names);
      return this;
    }

    /** Serves a flow at a route of the application's choosing. */
    public Builder flowAt(String route, String name) {
      routes.flowAt(route, name);
      return this;
    }

    /** Adds a context provider; providers run in the order added. */
    public Builder contextProvider(ContextProvider provider) {
      providers.add(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    /** The largest request body accepted; a larger one is refused with 413. */
    public Builder maxRequestBytes(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("the body limit must be positive");
      }
      this.maxRequestBytes = bytes;
      return this;
    }

    /** How often streams send keep-alive comments to clients that ask. */
    public Builder keepAliveInterval(Duration interval) {
      if (!interval.isPositive()) {
        throw new IllegalArgumentException("the keep-alive interval must be positive");
      }
      this.keepAliveInterval = interval;
      return this;
    }

    /** How long a graceful shutdown waits for requests and detached runs. */
    public Builder shutdownGrace(Duration grace) {
      if (grace.isNegative()) {
        throw new IllegalArgumentException("the shutdown grace must not be negative");
      }
      this.shutdownGrace = grace;
      return this;
    }

    /** Whether error answers carry every error's own message (by default when in development). */
    public Builder exposeErrorMessages(boolean expose) {
      this.exposeErrorMessages = expose;
      return this;
    }

    /** Serves the task console at {@code path}; see {@code BatonHandler.Builder.console}. */
    public Builder console(String path) {
      this.consolePath = Objects.requireNonNull(path, "path");
      return this;
    }

    /** The key of the console's abort tokens; see {@code BatonHandler.Builder.consoleTokenKey}. */
    public Builder consoleTokenKey(String key) {
      if (Objects.requireNonNull(key, "key").length() < 32) {
        throw new IllegalArgumentException(
            "the console's token key must have at least 32 characters, got " + key.length());
      }
      this.consoleTokenKey = key.getBytes(StandardCharsets.UTF_8);
      return this;
    }

    /**
     * The protocol, serving what this builder was given.
     *
     * @throws IllegalArgumentException when a chosen route is one the default layout serves
     */
    public WireProtocol build() {
      return new WireProtocol(this);
    }
  }
}
