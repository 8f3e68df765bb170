package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application that embeds Baton and closes it exits on its own, with no thread of Baton's left
 * and no row left pending. The application runs in a JVM of its own ({@link App}): a detached run
 * and a foreground turn on a non-daemon thread of the application both wait in a model call when it
 * closes Baton with a short grace. The JVM can exit only if the close stopped the foreground turn;
 * the test then reads the rows the application left in its file store.
 */
class BatonExitTest {
  @TempDir Path dir;

  @Test
  void anApplicationThatClosesBatonExitsWithNoThreadLeftAndNoRowPending() throws Exception {
    Path errors = dir.resolveSibling(dir.getFileName() + "-app.err");
    Process app =
        new ProcessBuilder(
                TestJvm.command(
                    App.class,
                    List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m"),
                    List.of(dir.toString())))
            .redirectError(errors.toFile())
            .start();
    boolean exited;
    try {
      // Well within the test's own timeout, so that a JVM that does not exit fails the assertion.
      exited = app.waitFor(30, TimeUnit.SECONDS);
    } finally {
      if (app.isAlive()) {
        app.destroyForcibly();
      }
    }
    String stderr = Files.readString(errors);
    assertThat(exited).as("the application exited on its own; it wrote: %s", stderr).isTrue();
    assertThat(app.exitValue()).as("its exit status; it wrote: %s", stderr).isZero();
    Map<String, String> reported = reported(new String(app.getInputStream().readAllBytes()));
    assertThat(reported)
        .as("the application stopped no thread of Baton's itself")
        .containsEntry("threads-left", "none");

    FileSessionStore store = FileSessionStore.builder(dir).build();
    ActionContext context = Baton.builder().build().context();
    SessionSnapshot detached = store.getSnapshot(context, reported.get("detached"));
    assertThat(detached.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(detached.state().messages())
        .extracting(Message::text)
        .as("the aborted row keeps the work it was handed, which a continue re-attempts")
        .containsExactly("go");
    String[] foreground = reported.get("foreground").split(" ");
    assertThat(foreground[1]).as("the foreground turn's error").isEqualTo("UNAVAILABLE");
    SessionSnapshot latest = store.getLatestSnapshot(context, foreground[0]);
    if (latest != null) {
      assertThat(latest.status()).isNotEqualTo(SnapshotStatus.PENDING);
    }
    Files.deleteIfExists(errors);
  }

  /** The application's {@code key value} lines. */
  private static Map<String, String> reported(String output) {
    return output
        .lines()
        .map(line -> line.split(" ", 2))
        .collect(Collectors.toMap(words -> words[0], words -> words.length > 1 ? words[1] : ""));
  }

  /**
   * The application: builds Baton with a file store in the folder named by its argument, detaches a
   * run, starts a foreground turn on a thread of its own, closes Baton once both wait, and returns
   * from {@code main} once no thread of Baton's is left (or reports those left).
   */
  static final class App {
    private static final Pattern THREAD_NAME = Pattern.compile("\"name\": \"(baton-[^\"]*)\"");

    private App() {}

    public static void main(String[] args) throws Exception {
      FileSessionStore store =
          FileSessionStore.builder(Path.of(args[0])).pollInterval(Duration.ofMillis(50)).build();
      Baton baton = Baton.builder().experimental().shutdownGrace(Duration.ofMillis(200)).build();
      SlowAgent slow =
          new SlowAgent(
              baton,
              "app",
              AgentOptions.builder()
                  .sessionStore(store)
                  .heartbeat(Duration.ofMillis(100), Duration.ofSeconds(5))
                  .build());
      AgentOutput detached =
          slow.agent.run(slow.baton.context(), AgentInput.text("go").withDetach(true));
      System.out.println("detached " + detached.snapshotId());
      Thread.ofPlatform()
          .name("app-foreground")
          .start(
              () -> {
                AgentOutput out = slow.agent.run(slow.baton.context(), AgentInput.text("go"));
                System.out.println("foreground " + out.sessionId() + " " + out.error().status());
              });
      slow.waiting.acquire(2);

      baton.close();

      try {
        await().atMost(Duration.ofSeconds(20)).until(() -> batonThreads().isEmpty());
        System.out.println("threads-left none");
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        System.out.println("threads-left " + batonThreads());
      }
    }

    /** The threads, virtual ones included, whose names Baton gives its own. */
    private static List<String> batonThreads() throws IOException {
      Path dump = Files.createTempFile("threads", ".json");
      Files.delete(dump);
      try {
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
            .dumpThreads(dump.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        Matcher names = THREAD_NAME.matcher(Files.readString(dump));
        return names.results().map(match -> match.group(1)).toList();
      } finally {
        Files.deleteIfExists(dump);
      }
    }
  }
}
