package dev.baton;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test class's {@code main} in a JVM whose file-name encoding is ASCII, as under {@code
 * LANG=C} in many containers: the JVM takes that encoding from the locale, and no system property
 * can set it.
 */
public final class AsciiNamesJvm {
  /** The exit code of a main that found its JVM's file names are not ASCII after all. */
  public static final int NOT_ASCII = 2;

  /** What the JVM printed, standard error included, and its exit code. */
  public record Result(int exitCode, String output) {
    /** Whether the JVM could be set up: its file names were ASCII. */
    public boolean ran() {
      return exitCode != NOT_ASCII;
    }
  }

  private AsciiNamesJvm() {}

  /**
   * Whether this JVM names files in ASCII; a main run here exits with {@link #NOT_ASCII} if not.
   */
  public static boolean namesFilesInAscii() {
    String encoding = System.getProperty("sun.jnu.encoding");
    return "ANSI_X3.4-1968".equals(encoding) || "US-ASCII".equals(encoding);
  }

  /** Runs {@code main} with {@code args} and waits up to a minute for it to end. */
  public static Result run(Class<?> main, String... args)
      throws IOException, InterruptedException, URISyntaxException {
    return start(main, args).await();
  }

  /** Starts {@code main} with {@code args}; {@link Running#await} waits for it. */
  public static Running start(Class<?> main, String... args)
      throws IOException, URISyntaxException {
    List<String> command = TestJvm.command(main, List.of(), List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(Map.of("LC_ALL", "C", "LANG", "C"));
    Process process = builder.start();
    // Read as it comes, so a JVM that prints a lot never blocks on a full pipe.
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            Executors.newVirtualThreadPerTaskExecutor());
    return new Running(process, output);
  }

  /** A JVM started by {@link #start}. */
  public record Running(Process process, CompletableFuture<String> output) {
    /** Waits up to a minute for the JVM to end. */
    public Result await() throws InterruptedException {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("the ASCII JVM did not end");
      }
      return new Result(process.exitValue(), output.join());
    }
  }
}
