package dev.baton.devtools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Which SIGTERM handler this JVM has while the dev tools run: theirs only in place of the JVM's
 * own, and after {@link DevTools#close()} the one they replaced, unless another has replaced
 * theirs. No signal is raised: the handler in place is read by swapping it out and back.
 */
class SigtermHandlerTest {
  private static final Signal TERM = new Signal("TERM");
  private static final Map<String, String> DEV =
      Map.of("GENKIT_ENV", "dev", "GENKIT_REFLECTION_PORT", "0");

  @TempDir Path project;
  private final Baton baton = Baton.builder().build();
  private final SignalHandler mine = signal -> {};
  private SignalHandler jvms = SignalHandler.SIG_DFL;

  @BeforeEach
  void remember() {
    jvms = current();
  }

  @AfterEach
  void restore() {
    Signal.handle(TERM, jvms);
  }

  /** The handler in place. */
  private static SignalHandler current() {
    SignalHandler current = Signal.handle(TERM, signal -> {});
    Signal.handle(TERM, current);
    return current;
  }

  /**
   * Whether two handlers are the same: the JDK hands its own back in a new wrapper on every call,
   * which prints as the handler it wraps.
   */
  private static boolean same(SignalHandler a, SignalHandler b) {
    return a == b || a.toString().equals(b.toString());
  }

  @Test
  void theDevToolsReplaceTheJvmsOwnHandlingAndCloseGivesItBack() {
    DevTools devTools = DevTools.start(baton, DEV, project);
    assertThat(same(current(), jvms)).as("the JVM's handler is still in place").isFalse();

    devTools.close();

    assertThat(same(current(), jvms)).as("the JVM's handler is back").isTrue();
  }

  @Test
  void anApplicationsOwnHandlerIsKept() {
    Signal.handle(TERM, mine);

    try (DevTools devTools = DevTools.start(baton, DEV, project)) {
      assertThat(devTools.isRunning()).isTrue();
      assertThat(current()).isSameAs(mine);
    }
    assertThat(current()).isSameAs(mine);
  }

  @Test
  void closeKeepsAHandlerInstalledAfterTheDevToolsStarted() {
    DevTools devTools = DevTools.start(baton, DEV, project);
    Signal.handle(TERM, mine);

    devTools.close();

    assertThat(current()).isSameAs(mine);
  }
}
