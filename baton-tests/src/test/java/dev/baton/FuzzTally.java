package dev.baton;

import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs fuzz cases and keeps score: how many ran, of which kind, with which outcome, and every
 * outcome that broke a rule. A case breaks a rule when it fails otherwise than with a {@link
 * BatonException}, fails with a status its kind does not allow, or answers with a message or a
 * value that contains one of the forbidden strings (the store's paths). Not thread-safe.
 */
final class FuzzTally {
  private static final int MAX_PROBLEMS = 50;

  private final List<String> forbidden;
  private final Map<String, Long> statuses = new TreeMap<>();
  private final Map<String, Long> kinds = new TreeMap<>();
  private final Map<String, Long> nanos = new TreeMap<>();
  private final List<String> problems = new ArrayList<>();
  private int cases;

  /**
   * @param forbidden what no message or value may contain: the file-system paths in play
   */
  FuzzTally(List<String> forbidden) {
    this.forbidden = List.copyOf(forbidden);
  }

  /** Runs a case whose value is its whole outcome. */
  <T> @Nullable T run(String kind, Set<Status> allowed, Object what, Supplier<T> call) {
    return run(kind, allowed, what, call, value -> null);
  }

  /**
   * Runs a case.
   *
   * @param allowed the outcomes Genkit's protocol gives for it, {@link Status#OK} for a value
   * @param what the case's input, for a problem's report
   * @param failure the error a value carries (a failed agent output's), or null when it carries
   *     none: such a value counts as that failure
   * @return the value, or null when the case failed
   */
  <T> @Nullable T run(
      String kind,
      Set<Status> allowed,
      Object what,
      Supplier<T> call,
      Function<T, @Nullable ErrorInfo> failure) {
    cases++;
    kinds.merge(kind, 1L, Long::sum);
    long start = System.nanoTime();
    try {
      T value = call.get();
      ErrorInfo error = value == null ? null : failure.apply(value);
      if (error != null) {
        outcome(kind, allowed, what, error.statusCode(), error.message());
      } else {
        outcome(kind, allowed, what, Status.OK, "");
      }
      if (value != null) {
        String text = describe(value);
        forbidden.stream()
            .filter(text::contains)
            .findFirst()
            .ifPresent(path -> problem(kind, what, "a value names a path: " + abbreviate(text)));
      }
      return error == null ? value : null;
    } catch (BatonException e) {
      outcome(kind, allowed, what, e.status(), String.valueOf(e.getMessage()));
    } catch (RuntimeException | StackOverflowError e) {
      statuses.merge(e.getClass().getSimpleName(), 1L, Long::sum);
      problem(kind, what, "not a BatonException: " + e);
    } finally {
      nanos.merge(kind, System.nanoTime() - start, Long::sum);
    }
    return null;
  }

  /** Records an outcome seen outside {@link #run}: a detached run's, say. */
  void outcome(String kind, Set<Status> allowed, Object what, Status status, String message) {
    statuses.merge(status.name(), 1L, Long::sum);
    if (!allowed.contains(status)) {
      problem(kind, what, status + " where Genkit's protocol gives " + allowed + ": " + message);
    }
    forbidden.stream()
        .filter(message::contains)
        .findFirst()
        .ifPresent(path -> problem(kind, what, "a message names a path: " + message));
  }

  /** Records a broken rule. */
  void problem(String kind, Object what, String problem) {
    if (problems.size() < MAX_PROBLEMS) {
      problems.add(kind + " " + abbreviate(describe(what)) + ": " + abbreviate(problem));
    } else if (problems.size() == MAX_PROBLEMS) {
      problems.add("(more problems left out)");
    }
  }

  /** Adds another tally's counts and problems, as a child JVM printed them. */
  void add(String kind, int moreCases, Map<String, Long> moreStatuses, List<String> moreProblems) {
    cases += moreCases;
    kinds.merge(kind, (long) moreCases, Long::sum);
    moreStatuses.forEach((status, n) -> statuses.merge(status, n, Long::sum));
    moreProblems.forEach(p -> problem(kind, "", p));
  }

  int cases() {
    return cases;
  }

  Map<String, Long> statuses() {
    return statuses;
  }

  Map<String, Long> kinds() {
    return kinds;
  }

  /** The milliseconds the cases of each kind took. */
  Map<String, Long> millis() {
    Map<String, Long> millis = new TreeMap<>();
    nanos.forEach((kind, n) -> millis.put(kind, n / 1_000_000));
    return millis;
  }

  List<String> problems() {
    return problems;
  }

  private static String describe(Object what) {
    if (what instanceof String s) {
      return Json.write(s);
    }
    try {
      return Json.write(what);
    } catch (BatonException e) {
      return what.getClass().getSimpleName() + " (not writable: " + e.getMessage() + ")";
    }
  }

  static String abbreviate(String text) {
    return text.length() <= 300 ? text : text.substring(0, 300) + "… (" + text.length() + ")";
  }
}
