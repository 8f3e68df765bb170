package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * The {@link Baton} bean's part in the context's lifecycle, in a phase of its own after the web
 * server and the serving of agents have stopped (they stop in higher phases, and higher phases stop
 * first), and before the beans are destroyed.
 *
 * <p>When the context closes, the instance closes: {@link Baton#close(java.time.Duration)} waits
 * for the turns and detached runs in flight within what the {@link ShutdownDeadline} has left (the
 * serving drain used the rest), then aborts what is left, so that a detached run settles as an
 * {@code aborted} row another process can continue. The session store, a bean like any other, is
 * destroyed after this, so the aborted rows are written through it.
 *
 * <p>A plain stop or pause of the context ({@code stop()}, {@code pause()}, a restart) only waits,
 * within the deadline, for the work in flight, without aborting it or refusing new turns: a closed
 * instance cannot open again, and the context may start again. The instance then closes when the
 * context is destroyed ({@link #destroy}), before Spring's own {@code close()} of the bean, which
 * then returns at once.
 */
public final class BatonLifecycle implements SmartLifecycle, DisposableBean {
  /** The phase: after Boot's web server shutdown ({@code DEFAULT_PHASE - 1024}) has ended. */
  public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

  private static final Logger log = LoggerFactory.getLogger(BatonLifecycle.class);

  private final Baton baton;
  private final ShutdownDeadline deadline;
  private volatile boolean running;

  /** The lifecycle of {@code baton}, whose shutdown runs against {@code deadline}. */
  public BatonLifecycle(Baton baton, ShutdownDeadline deadline) {
    this.baton = Objects.requireNonNull(baton, "baton");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    try {
      if (deadline.closing()) {
        baton.close(deadline.remaining());
      } else {
        drain();
      }
    } finally {
      running = false;
    }
  }

  private void drain() {
    try {
      if (!baton.drain(deadline.remaining())) {
        log.info(
            "Baton work is still in flight after the shutdown grace of {}; it goes on while the"
                + " context is stopped",
            deadline.grace());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Closes the instance when the context is destroyed without this lifecycle stopping on close. */
  @Override
  public void destroy() {
    baton.close(deadline.remaining());
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
