package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * Closes the {@link Baton} bean when the context stops, in a phase of its own after the web server
 * and the serving of agents have stopped (they stop in higher phases, and higher phases stop
 * first), and before the beans are destroyed. {@link Baton#close()} waits for the turns and
 * detached runs in flight up to the instance's shutdown grace, then aborts what is left, so that a
 * detached run settles as an {@code aborted} row another process can continue. The session store, a
 * bean like any other, is destroyed after this, so the aborted rows are written through it.
 *
 * <p>Spring destroys the bean afterwards with its inferred {@code close()} too; by then the
 * instance has closed, and a second {@code close()} returns at once.
 */
public final class BatonLifecycle implements SmartLifecycle {
  /** The phase: after Boot's web server shutdown ({@code DEFAULT_PHASE - 1024}) has ended. */
  public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

  private final Baton baton;
  private volatile boolean running;

  public BatonLifecycle(Baton baton) {
    this.baton = Objects.requireNonNull(baton, "baton");
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    try {
      baton.close();
    } finally {
      running = false;
    }
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
