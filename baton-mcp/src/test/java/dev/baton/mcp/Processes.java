package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/** The test JVM's child processes: what a closed MCP client must not leave behind. */
final class Processes {
  private Processes() {}

  /** The command lines of this JVM's live descendants that contain {@code marker}. */
  static List<String> running(String marker) {
    return commandLines(ProcessHandle.current().descendants(), marker);
  }

  private static List<String> commandLines(Stream<ProcessHandle> processes, String marker) {
    return processes
        .filter(ProcessHandle::isAlive)
        .map(process -> process.info().commandLine().orElse(""))
        .filter(command -> command.contains(marker))
        .toList();
  }

  /** Waits (a few seconds at most: a process takes a moment to die) until none is left. */
  static void assertNoneLeft(String marker) {
    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(() -> assertThat(running(marker)).as("left running").isEmpty());
  }

  /**
   * Waits until no process of the machine has {@code marker} in its command line: for a grandchild,
   * which stops being a descendant once its parent is gone.
   */
  static void assertNoneLeftAnywhere(String marker) {
    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () ->
                assertThat(commandLines(ProcessHandle.allProcesses(), marker))
                    .as("left running")
                    .isEmpty());
  }
}
