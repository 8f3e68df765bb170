package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

/** The test JVM's child processes: what a closed MCP client must not leave behind. */
final class Processes {
  private Processes() {}

  /** The command lines of this JVM's live descendants that contain {@code marker}. */
  static List<String> running(String marker) {
    return ProcessHandle.current()
        .descendants()
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
}
