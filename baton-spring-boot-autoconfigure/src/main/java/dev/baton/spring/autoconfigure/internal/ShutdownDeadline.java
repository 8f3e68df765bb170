package dev.baton.spring.autoconfigure.internal;

import dev.baton.spring.autoconfigure.BatonProperties;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ApplicationContextEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.ContextStoppedEvent;
import org.springframework.core.env.Environment;

/**
 * The one deadline a shutdown of the application's Baton work runs against, so that its steps share
 * the grace rather than each waiting a grace of its own: the served routes wait for their requests
 * within it, and the {@code Baton} bean then waits for what is left within what remains before it
 * aborts it.
 *
 * <p>A close's deadline begins when the context begins to close ({@link ContextClosedEvent}, before
 * any lifecycle stops), a plain stop's or pause's at the first {@link #remaining()} of the stop;
 * the stop's ends with it ({@link ContextStoppedEvent}), so that a later stop or close gets a whole
 * grace again. Events of other contexts (a child context's close reaches its parent's listeners)
 * are ignored.
 *
 * <p>Thread-safe.
 */
public final class ShutdownDeadline implements ApplicationListener<ApplicationContextEvent> {
  private final Duration grace;
  private final ApplicationContext context;
  private volatile boolean closing;
  private @Nullable Long deadline; // System.nanoTime(); guarded by this

  /** A deadline {@code grace} after the shutdown of {@code context} begins. */
  public ShutdownDeadline(Duration grace, ApplicationContext context) {
    this.grace = Objects.requireNonNull(grace, "grace");
    this.context = Objects.requireNonNull(context, "context");
  }

  /** The deadline of {@code context}, whose grace its properties give ({@link ShutdownGrace}). */
  public static ShutdownDeadline of(
      BatonProperties properties, Environment environment, ApplicationContext context) {
    return new ShutdownDeadline(ShutdownGrace.of(properties, environment), context);
  }

  @Override
  public void onApplicationEvent(ApplicationContextEvent event) {
    if (!context.equals(event.getApplicationContext())) {
      return;
    }
    if (event instanceof ContextClosedEvent) {
      closing = true;
      begin();
    } else if (event instanceof ContextStoppedEvent) {
      end();
    }
  }

  /** The grace a whole shutdown gets. */
  public Duration grace() {
    return grace;
  }

  /** Whether the context is closing, rather than stopping or pausing to start again. */
  public boolean closing() {
    return closing;
  }

  /** What is left of the current shutdown's grace, which begins now when none has begun. */
  public synchronized Duration remaining() {
    long now = System.nanoTime();
    if (deadline == null) {
      deadline = now + grace.toNanos();
    }
    return Duration.ofNanos(Math.max(0, deadline - now));
  }

  private synchronized void begin() {
    deadline = System.nanoTime() + grace.toNanos();
  }

  private synchronized void end() {
    deadline = null;
  }
}
