package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import dev.baton.spring.autoconfigure.BatonProperties;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * How long a shutdown waits for running turns and detached runs, the served routes' drain and the
 * {@code Baton} bean's close together (see {@link ShutdownDeadline}): {@code baton.shutdown-grace},
 * else Spring Boot's {@code spring.lifecycle.timeout-per-shutdown-phase}, else 30 seconds.
 */
public final class ShutdownGrace {
  private static final String PHASE_TIMEOUT = "spring.lifecycle.timeout-per-shutdown-phase";

  private ShutdownGrace() {}

  /** The grace the application's properties give. */
  public static Duration of(BatonProperties properties, Environment environment) {
    return Objects.requireNonNullElseGet(
        properties.shutdownGrace(),
        () ->
            Binder.get(environment)
                .bind(PHASE_TIMEOUT, Duration.class)
                .orElse(Baton.DEFAULT_SHUTDOWN_GRACE));
  }
}
