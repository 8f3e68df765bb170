package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The processes one test started, found by a mark that only they carry on their command line: what
 * a closed MCP client must not leave behind. Test classes run in parallel, so a check that looked
 * at every child of the JVM would see the servers of other tests.
 */
final class Processes {
  private Processes() {}

  /** A mark no other test's process has: put it on the command line of the processes to check. */
  static String mark() {
    return "baton-test-" + UUID.randomUUID();
  }

  /** Waits (a few seconds at most: a process takes a moment to die) until none is left. */
  static void assertNoneLeft(String mark) {
    assertNoneLeftOf(() -> ProcessHandle.current().descendants(), mark);
  }

  /**
   * Waits until no process of the machine has {@code mark} in its command line: for a grandchild,
   * which stops being a descendant once its parent is gone.
   */
  static void assertNoneLeftAnywhere(String mark) {
    assertNoneLeftOf(ProcessHandle::allProcesses, mark);
  }

  private static void assertNoneLeftOf(Supplier<Stream<ProcessHandle>> processes, String mark) {
    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () -> assertThat(commandLines(processes.get(), mark)).as("left running").isEmpty());
  }

  private static List<String> commandLines(Stream<ProcessHandle> processes, String mark) {
    return processes
        .filter(ProcessHandle::isAlive)
        .map(process -> process.info().commandLine().orElse(""))
        .filter(command -> command.contains(mark))
        .toList();
  }
}
