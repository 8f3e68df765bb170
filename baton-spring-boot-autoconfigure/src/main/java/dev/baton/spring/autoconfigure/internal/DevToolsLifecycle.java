package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import dev.baton.devtools.DevTools;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;

/**
 * Serves Genkit's reflection API for the {@link Baton} bean from the moment the application is
 * ready, so that every agent and flow bean is defined when {@code genkit start} lists them, until
 * the context stops. It stops after the web server and before the instance closes, so the API never
 * runs an action on a closed instance.
 *
 * <p>The dev tools read {@code GENKIT_REFLECTION_PORT}, {@code GENKIT_RUNTIME_ID} and {@code
 * GENKIT_TELEMETRY_SERVER} from Spring's {@link Environment}, so properties can stand in for them;
 * {@code GENKIT_ENV} is {@code dev} for them, since the auto-configuration decided to start them.
 * Thread-safe.
 */
public final class DevToolsLifecycle
    implements SmartLifecycle, ApplicationListener<ApplicationReadyEvent> {
  /** After the web server stops ({@code DEFAULT_PHASE - 2048}), before Baton closes. */
  private static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 3072;

  private static final List<String> VARIABLES =
      List.of("GENKIT_REFLECTION_PORT", "GENKIT_RUNTIME_ID", "GENKIT_TELEMETRY_SERVER");

  private final Baton baton;
  private final Environment environment;
  private boolean running;
  private @Nullable DevTools devTools;

  /**
   * @param baton the instance to serve
   * @param environment where the dev tools' variables are read
   */
  public DevToolsLifecycle(Baton baton, Environment environment) {
    this.baton = baton;
    this.environment = environment;
  }

  @Override
  public void onApplicationEvent(ApplicationReadyEvent event) {
    synchronized (this) {
      if (!running || devTools != null) {
        return;
      }
      Map<String, String> variables = new HashMap<>();
      variables.put("GENKIT_ENV", "dev");
      for (String name : VARIABLES) {
        String value = environment.getProperty(name);
        if (value != null) {
          variables.put(name, value);
        }
      }
      devTools = DevTools.start(baton, variables);
    }
  }

  /** The reflection API's URL while it is served. */
  public synchronized Optional<URI> url() {
    return devTools == null ? Optional.empty() : devTools.url();
  }

  @Override
  public synchronized void start() {
    running = true;
  }

  @Override
  public void stop() {
    DevTools started;
    synchronized (this) {
      running = false;
      started = devTools;
      devTools = null;
    }
    if (started != null) {
      started.close();
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
