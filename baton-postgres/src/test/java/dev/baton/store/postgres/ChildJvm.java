package dev.baton.store.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Another JVM running a {@code main} class of the test sources, with the test class path: a second
 * machine of the fleet. The test talks to it through lines: it waits for the markers the child
 * prints and writes commands to its input. {@link #kill()} ends it with SIGKILL, as a crash or an
 * out-of-memory killer would.
 */
final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> transcript = new ArrayList<>();
  private final Writer input;

  private ChildJvm(Process process) {
    this.process = process;
    this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread.ofVirtual()
        .name("child-jvm-output-" + process.pid())
        .start(
            () -> {
              try (BufferedReader output =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = output.readLine()) != null) {
                  synchronized (transcript) {
                    transcript.add(line);
                  }
                  lines.add(line);
                }
              } catch (IOException e) {
                // The child died; what it printed is in the transcript.
              }
            });
  }

  /** Starts {@code mainClass} with {@code args} in a new JVM on this JVM's class path. */
  static ChildJvm start(Class<?> mainClass, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // A quick start matters more than peak speed for these short-lived JVMs.
    command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k"));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
    command.addAll(List.of(args));
    return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
  }

  /**
   * Waits for the next line that starts with {@code marker} and returns the rest of it (after a
   * space), skipping other lines.
   *
   * @throws AssertionError when the child exits or {@code timeout} passes first
   */
  String await(String marker, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (long left = timeout.toNanos(); left > 0; left = deadline - System.nanoTime()) {
      String line =
          lines.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
      if (line != null && line.startsWith(marker)) {
        return line.substring(marker.length()).strip();
      }
      if (line == null && !process.isAlive() && lines.isEmpty()) {
        throw new AssertionError(
            "the child exited before printing " + marker + ":\n" + transcript());
      }
    }
    throw new AssertionError("no " + marker + " within " + timeout + ":\n" + transcript());
  }

  /** Sends a line to the child's input. */
  void send(String line) throws IOException {
    input.write(line + "\n");
    input.flush();
  }

  /** Kills the child with SIGKILL and waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("the child survived SIGKILL");
    }
  }

  /** Waits for the child to exit by itself; its exit code. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("the child did not exit within " + timeout + ":\n" + transcript());
    }
    return process.exitValue();
  }

  /** Everything the child printed so far. */
  String transcript() {
    synchronized (transcript) {
      return String.join("\n", transcript);
    }
  }

  /** Kills the child if it still runs. */
  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        kill();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
