package dev.baton.server;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.IntFunction;
import java.util.function.ObjIntConsumer;
import java.util.regex.Pattern;

/**
 * How the fuzz tests of every protocol served on this module's Jetty (Genkit's, A2A) send their
 * generated requests and what no answer may show. Public for the bindings' fuzz tests in other
 * modules.
 */
public final class FuzzHarness {
  /**
   * What betrays an internal detail on the wire: a stack trace, an exception, or a Java class or
   * package name of the JDK, Jackson, Jetty or Baton.
   */
  public static final Pattern INTERNAL_DETAIL =
      Pattern.compile(
          "(?i)exception|\\tat |caused by|jsontoken|"
              + "\\b(java|javax|jdk|sun|tools\\.jackson|com\\.fasterxml|org\\.eclipse|dev\\.baton)"
              + "\\.[a-z]+\\.");

  private FuzzHarness() {}

  /**
   * Generates {@code count} cases in order on the calling thread, so that a seed gives the same
   * cases every time, and checks each on a virtual thread of its own, {@code concurrency} at a
   * time; returns when every check is done.
   *
   * @param generate the case of each index
   * @param check sends a case and records what is wrong with its answer; it must be thread-safe
   */
  public static <C> void run(
      int count, int concurrency, IntFunction<C> generate, ObjIntConsumer<C> check)
      throws InterruptedException {
    Semaphore slots = new Semaphore(concurrency);
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < count; i++) {
        C c = generate.apply(i);
        int index = i;
        slots.acquire();
        executor.execute(
            () -> {
              try {
                check.accept(c, index);
              } finally {
                slots.release();
              }
            });
      }
    }
  }
}
