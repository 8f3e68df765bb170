package dev.baton.server;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The Node peers of the interop tests: Node runs the scripts in the module's {@code src/test/js},
 * whose packages (pinned by {@code package-lock.json}) are installed there with {@code npm ci} from
 * the npm registry, once per lock file. Shared with other modules' tests through this module's test
 * jar.
 *
 * <p>Without Node the tests are skipped with a message that says so, except in CI ({@code
 * CI=true}), where they fail.
 */
public final class NodeFixture {
  public static final Path DIR = Path.of("src/test/js").toAbsolutePath();
  private static final Path MARKER = DIR.resolve("node_modules/.baton-lock-sha256");
  private static boolean installed;

  private NodeFixture() {}

  /** Makes sure Node and the packages are there; skips (or fails in CI) without Node. */
  public static synchronized void require() {
    if (installed) {
      return;
    }
    if (!works("node", "--version") || !works("npm", "--version")) {
      String why = "Node.js and npm are needed for the Node interop tests and are not on PATH";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail(why + " (CI=true makes this a failure)");
      }
      Assumptions.abort(why + "; install Node 20 or newer to run them");
    }
    String lock = sha256(DIR.resolve("package-lock.json"));
    if (!Files.exists(MARKER) || !read(MARKER).equals(lock)) {
      Run install = run(List.of("npm", "ci", "--no-audit", "--no-fund"), Duration.ofMinutes(10));
      if (install.exit() != 0) {
        fail("npm ci failed in " + DIR + ":\n" + install.stdout() + install.stderr());
      }
      write(MARKER, lock);
    }
    installed = true;
  }

  /** What a finished process printed, and its exit code. */
  public record Run(int exit, String stdout, String stderr) {}

  /** Runs {@code node <script> <args>} to its end. */
  public static Run node(String script, List<String> args, Duration timeout) {
    List<String> command = new ArrayList<>(List.of("node", script));
    command.addAll(args);
    return run(command, timeout);
  }

  /** A Node server started from a script that prints {@code LISTENING <port>} once it listens. */
  public static final class Server implements AutoCloseable {
    private final Process process;
    private final int port;
    private final StringBuilder output;

    private Server(Process process, int port, StringBuilder output) {
      this.process = process;
      this.port = port;
      this.output = output;
    }

    public int port() {
      return port;
    }

    public String output() {
      synchronized (output) {
        return output.toString();
      }
    }

    @Override
    public void close() {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  public static Server server(String script, String... args) {
    List<String> command = new ArrayList<>(List.of("node", script));
    command.addAll(List.of(args));
    try {
      Process process =
          new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true).start();
      StringBuilder output = new StringBuilder();
      CompletableFuture<Integer> listening = new CompletableFuture<>();
      Thread.ofVirtual()
          .start(
              () -> {
                try (BufferedReader lines =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = lines.readLine()) != null) {
                    synchronized (output) {
                      output.append(line).append('\n');
                    }
                    if (line.startsWith("LISTENING ")) {
                      listening.complete(Integer.parseInt(line.substring(10).strip()));
                    }
                  }
                } catch (IOException e) {
                  // the process ended
                }
                listening.completeExceptionally(
                    new IllegalStateException("the server ended:\n" + output));
              });
      return new Server(process, listening.get(60, TimeUnit.SECONDS), output);
    } catch (Exception e) {
      throw new IllegalStateException("could not start node " + script, e);
    }
  }

  private static Run run(List<String> command, Duration timeout) {
    try {
      Path out = Files.createTempFile("baton-node", ".out");
      Path err = Files.createTempFile("baton-node", ".err");
      Process process =
          new ProcessBuilder(command)
              .directory(DIR.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        fail(String.join(" ", command) + " did not finish within " + timeout + ":\n" + read(err));
      }
      Run run = new Run(process.exitValue(), read(out), read(err));
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      return run;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static boolean works(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static String sha256(Path file) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
