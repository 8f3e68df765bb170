package dev.baton.agent.store;

import dev.baton.core.BatonException;
import dev.baton.internal.core.Utf16;
import dev.baton.internal.store.SnapshotRules;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Validation of the names the file store turns into paths: snapshot IDs (row files), session IDs
 * (pointer files) and the segments of a path prefix. The rules are Genkit Go's: a safe name is
 * non-empty, has no {@code /}, no {@code \}, no {@code ..} anywhere, does not start with {@code .},
 * and has no control character (below U+0020). One more is every Baton store's: it is well-formed
 * UTF-16, with no lone surrogate, since a row is UTF-8 JSON and could not hold its own ID otherwise
 * (see {@link SnapshotRules}). Any length is safe: {@link FileNames} gives every safe name a file.
 * The rule on a leading dot also keeps row names apart from the store's own {@code .pointers}
 * directory.
 *
 * <p>Error messages quote the name as {@link SnapshotRules#quote} does; they never name a path.
 */
final class SafeIds {
  private SafeIds() {}

  /**
   * Checks a snapshot ID.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when it is not a safe name
   */
  static void requireSnapshotId(String snapshotId) {
    require("snapshot ID", snapshotId);
  }

  /**
   * Checks a session ID.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when it is not a safe name
   */
  static void requireSessionId(String sessionId) {
    require("session ID", sessionId);
  }

  /** Whether a name is safe (see the class comment). */
  static boolean isSafe(String name) {
    return problem(name) == null;
  }

  /**
   * The segments of a path prefix such as {@code org-42/user-7}: split at {@code /}, with empty
   * segments (from a leading, trailing or doubled {@code /}) dropped.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when a segment is not a safe name, or when no
   *     segment is left (an empty or separator-only prefix)
   */
  static List<String> prefixSegments(String prefix) {
    List<String> segments = new ArrayList<>();
    for (String segment : prefix.split("/", -1)) {
      if (segment.isEmpty()) {
        continue;
      }
      String problem = problem(segment);
      if (problem != null) {
        throw BatonException.invalidArgument(
            "invalid snapshot path prefix %s: segment %s %s",
            SnapshotRules.quote(prefix), SnapshotRules.quote(segment), problem);
      }
      segments.add(segment);
    }
    if (segments.isEmpty()) {
      throw BatonException.invalidArgument(
          "invalid snapshot path prefix %s: it names no directory; leave the prefix option out"
              + " to use the default",
          SnapshotRules.quote(prefix));
    }
    return List.copyOf(segments);
  }

  private static void require(String what, String name) {
    String problem = problem(name);
    if (problem != null) {
      throw BatonException.invalidArgument(
          "invalid %s %s: it %s", what, SnapshotRules.quote(name), problem);
    }
  }

  /** What makes a name unsafe, or null when it is safe. */
  private static @Nullable String problem(String name) {
    if (name.isEmpty()) {
      return "is empty";
    }
    if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0) {
      return "contains a path separator";
    }
    if (name.contains("..")) {
      return "contains \"..\"";
    }
    if (name.startsWith(".")) {
      return "starts with \".\"";
    }
    if (name.chars().anyMatch(c -> c < 0x20)) {
      return "contains a control character";
    }
    if (!Utf16.isWellFormed(name)) {
      return "is not well-formed Unicode (it has a lone surrogate)";
    }
    return null;
  }
}
