package dev.baton.devtools;

import com.sun.net.httpserver.HttpServer;
import dev.baton.Baton;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.otel.BatonTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Genkit's developer tools for a Baton instance: with it, {@code genkit start -- <your java
 * command>} lists the instance's actions (models, tools, flows, prompts, agents and their
 * companions, middleware), runs them, and shows their traces, as it does for Genkit JS and Go.
 *
 * <pre>{@code
 * BatonTelemetry telemetry = BatonTelemetry.fromEnvironment();   // baton-otel: traces for the CLI
 * Baton baton = Baton.builder().openTelemetry(telemetry).build();
 * ... define flows, agents ...
 * DevTools.start(baton);   // does nothing unless GENKIT_ENV=dev
 * }</pre>
 *
 * <p>Only when {@code GENKIT_ENV=dev} (as {@code genkit start} sets it) does {@link #start} serve
 * Genkit's reflection API, version 1: on {@code 127.0.0.1}, at the port {@code
 * GENKIT_REFLECTION_PORT} names or the first free one from 3100. Once it listens, it writes the
 * runtime file the CLI discovers it by, {@code .genkit/runtimes/<pid>-<port>-<millis>.json} under
 * the project root that the CLI itself would find from the working directory (the nearest directory
 * holding {@code pom.xml}, {@code build.gradle}, {@code package.json} or another of its markers);
 * its {@code id} is {@code GENKIT_RUNTIME_ID}, or {@code <pid>-<port>}. {@link #close()} removes
 * the file and stops the server, and so does the JVM's shutdown, SIGTERM included. Start the
 * command from the directory {@code genkit start} runs in: a command that changes directory writes
 * its file where the CLI does not look.
 *
 * <p>{@code genkit start} stops its runtime with SIGTERM and reports any exit status but 0 as a
 * crash. While the dev tools run, SIGTERM therefore ends the JVM with status 0, as a Genkit JS
 * runtime ends, once the shutdown hooks have run (the JVM's own handling exits with 143). They take
 * SIGTERM over only from the JVM's own handling: an application that handles SIGTERM itself keeps
 * its handler (the dev tools say so in an info log). {@link #close()} gives SIGTERM back to the
 * handling it had before, unless a handler installed since has replaced theirs, which then stays.
 * The {@code java} that {@code genkit start} runs is the one on the CLI's {@code PATH}; see the
 * package documentation.
 *
 * <p>Traces reach the CLI when the instance was built with a {@link BatonTelemetry}: the reflection
 * API hands it the telemetry server the CLI announces (unless {@code GENKIT_TELEMETRY_SERVER} is
 * set, which wins), and waits for the spans sent there before it answers a run (its OTLP export, if
 * any, keeps its own schedule).
 *
 * <p>Thread-safe.
 */
public final class DevTools implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DevTools.class);

  /** The version of the reflection API served, as the runtime file and {@code /api/notify} say. */
  static final int REFLECTION_API_SPEC_VERSION = 1;

  /** Baton's version, sent as {@code X-Genkit-Version} ({@code java/<version>} in the file). */
  static final String VERSION = readVersion();

  private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(5);

  private final @Nullable ReflectionServer server;
  private final @Nullable RuntimeFile runtimeFile;
  private @Nullable Thread shutdownHook;
  // The dev tools' SIGTERM handler and the handling it replaced, given back on close; both null
  // when they left SIGTERM as it was.
  private @Nullable SignalHandler sigtermExit;
  private @Nullable SignalHandler previousSigterm;
  private boolean closed;

  private DevTools(@Nullable ReflectionServer server, @Nullable RuntimeFile runtimeFile) {
    this.server = server;
    this.runtimeFile = runtimeFile;
  }

  /**
   * Serves Genkit's reflection API for this instance when {@code GENKIT_ENV=dev}; otherwise returns
   * at once, serving nothing ({@link #isRunning()} is false).
   *
   * @throws UncheckedIOException in dev mode, when no port can be bound or the runtime file cannot
   *     be written
   * @throws IllegalArgumentException when {@code GENKIT_REFLECTION_PORT} is not a number
   */
  public static DevTools start(Baton baton) {
    return start(baton, System.getenv());
  }

  /**
   * {@link #start(Baton)} with the variables read from {@code environment} instead of the
   * process's: {@code GENKIT_ENV}, {@code GENKIT_REFLECTION_PORT}, {@code GENKIT_RUNTIME_ID} and
   * {@code GENKIT_TELEMETRY_SERVER}. For a framework that has its own view of the environment, such
   * as Spring's, where a property may stand in for a variable; the runtime file still goes under
   * the project root found from the working directory.
   *
   * @throws UncheckedIOException in dev mode, when no port can be bound or the runtime file cannot
   *     be written
   * @throws IllegalArgumentException when {@code GENKIT_REFLECTION_PORT} is not a number
   */
  public static DevTools start(Baton baton, Map<String, String> environment) {
    return start(baton, Map.copyOf(environment), Path.of("").toAbsolutePath());
  }

  /** {@link #start(Baton)} with the environment and working directory given, for tests. */
  static DevTools start(Baton baton, Map<String, String> env, Path workingDirectory) {
    Objects.requireNonNull(baton, "baton");
    if (!"dev".equals(env.get("GENKIT_ENV"))) {
      return new DevTools(null, null);
    }
    BatonTelemetry telemetry = telemetryOf(baton);
    boolean serverFixed = !env.getOrDefault("GENKIT_TELEMETRY_SERVER", "").isBlank();
    RunAction runAction =
        new RunAction(
            baton,
            VERSION,
            () -> {
              if (telemetry != null && !telemetry.flushTelemetryServer(FLUSH_TIMEOUT)) {
                log.debug(
                    "spans were still being sent to the telemetry server after {}", FLUSH_TIMEOUT);
              }
            });
    ReflectionServer server;
    RuntimeFile file;
    try {
      HttpServer bound = ReflectionServer.bind(ReflectionServer.port(env));
      int port = bound.getAddress().getPort();
      long pid = ProcessHandle.current().pid();
      String id = env.getOrDefault("GENKIT_RUNTIME_ID", "");
      String runtimeId = id.isBlank() ? pid + "-" + port : id;
      server =
          ReflectionServer.start(
              bound,
              baton,
              runtimeId,
              runAction,
              url -> {
                // As in Genkit JS and Go: a server named in the environment is not overridden.
                if (!serverFixed && telemetry != null) {
                  telemetry.useTelemetryServer(url);
                }
              });
      try {
        file =
            RuntimeFile.write(
                RuntimeFile.projectRoot(workingDirectory),
                runtimeId,
                pid,
                server.url(),
                Instant.now(),
                "java/" + VERSION);
      } catch (IOException e) {
        server.stop();
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start Genkit's reflection API", e);
    }
    if (telemetry == null) {
      log.info(
          "Baton was built without BatonTelemetry (baton-otel): the Genkit Dev UI will show no"
              + " traces. Build it with .openTelemetry(BatonTelemetry.fromEnvironment()).");
    }
    log.info("Genkit reflection API at {} (runtime file {})", server.url(), file.path());
    DevTools devTools = new DevTools(server, file);
    devTools.installShutdownHook();
    devTools.exitCleanlyOnSigterm();
    return devTools;
  }

  /** Whether the reflection API is being served. */
  public synchronized boolean isRunning() {
    return server != null && !closed;
  }

  /** The reflection API's URL while it is served. */
  public synchronized Optional<URI> url() {
    return isRunning() ? Optional.of(Objects.requireNonNull(server).url()) : Optional.empty();
  }

  /**
   * Stops serving and removes the runtime file, if it is still this process's. Idempotent; a no-op
   * when nothing was started.
   */
  @Override
  public void close() {
    ReflectionServer running;
    Thread hook;
    SignalHandler exit;
    SignalHandler previous;
    synchronized (this) {
      running = closed ? null : server;
      hook = shutdownHook;
      exit = sigtermExit;
      previous = previousSigterm;
      closed = true;
    }
    if (running == null) {
      return;
    }
    if (exit != null && previous != null) {
      giveBackSigterm(exit, previous);
    }
    if (runtimeFile != null) {
      runtimeFile.delete();
    }
    running.stop();
    if (hook != null && Thread.currentThread() != hook) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The JVM is exiting: the hook runs, or has run, close() itself.
      }
    }
  }

  private synchronized void installShutdownHook() {
    // The CLI exits when its child does and never cleans up, so the runtime removes its own file.
    Thread hook = new Thread(this::close, "baton-devtools-shutdown");
    shutdownHook = hook;
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Makes SIGTERM exit with status 0 through {@link System#exit}, which runs the shutdown hooks as
   * the JVM's own handling does, this class's included; only in place of the JVM's own handling.
   * {@link Signal#handle} is the only way to read the handler in place, and it swaps: an
   * application's handler is put back at once, and is off for that instant.
   */
  private synchronized void exitCleanlyOnSigterm() {
    SignalHandler exit = signal -> System.exit(0);
    SignalHandler previous;
    try {
      previous = Signal.handle(new Signal("TERM"), exit);
    } catch (IllegalArgumentException unavailable) {
      // No SIGTERM on this platform, or the JVM keeps it (-Xrs): its own handling stays.
      log.debug("SIGTERM keeps the JVM's own handling: {}", unavailable.getMessage());
      return;
    }
    if (!isJvmDefault(previous)) {
      Signal.handle(new Signal("TERM"), previous);
      log.info(
          "SIGTERM keeps the application's own handler ({}): genkit start reports a runtime that"
              + " exits with any status but 0 as a crash",
          previous);
      return;
    }
    sigtermExit = exit;
    previousSigterm = previous;
  }

  /**
   * Gives SIGTERM back to the handling the dev tools replaced, unless a handler installed since has
   * replaced theirs: that one stays.
   */
  @SuppressWarnings("ReferenceEquality") // handlers are told apart by identity
  private static void giveBackSigterm(SignalHandler exit, SignalHandler previous) {
    SignalHandler current = Signal.handle(new Signal("TERM"), previous);
    if (current != exit) {
      Signal.handle(new Signal("TERM"), current);
    }
  }

  /**
   * Whether a SIGTERM handler is the JVM's own: the JDK's, which runs the shutdown hooks and exits
   * with 143 ({@link Signal#handle} hands it back wrapped in a class of its own module), or the
   * operating system's default. Any other, {@code SIG_IGN} included, is the application's choice.
   */
  @SuppressWarnings("ReferenceEquality") // handlers are told apart by identity
  private static boolean isJvmDefault(SignalHandler handler) {
    return handler != SignalHandler.SIG_IGN
        && handler.getClass().getModule() == SignalHandler.class.getModule();
  }

  private static @Nullable BatonTelemetry telemetryOf(Baton baton) {
    OpenTelemetry openTelemetry = DefaultRegistry.tracing(baton.registry()).openTelemetry();
    return openTelemetry instanceof BatonTelemetry telemetry ? telemetry : null;
  }

  private static String readVersion() {
    try (InputStream in = DevTools.class.getResourceAsStream("version.txt")) {
      String version =
          in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
      return version.isEmpty() || version.startsWith("$") ? "0.0.0" : version;
    } catch (IOException e) {
      return "0.0.0";
    }
  }
}
