package dev.baton.agent.store;

import dev.baton.core.BatonException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Validation of the names the file store turns into paths: snapshot IDs (row files), session IDs
 * (pointer files) and the segments of a path prefix. A safe name is one path segment that stays
 * inside its directory and is not hidden: it is non-empty, has no {@code /}, no {@code \}, no
 * {@code ..} anywhere, does not start with {@code .}, and has no control character (below U+0020).
 * The rule on a leading dot also keeps row names apart from the store's own {@code .pointers}
 * directory.
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
            quote(prefix), quote(segment), problem);
      }
      segments.add(segment);
    }
    if (segments.isEmpty()) {
      throw BatonException.invalidArgument(
          "invalid snapshot path prefix %s: it names no directory; leave the prefix option out"
              + " to use the default",
          quote(prefix));
    }
    return List.copyOf(segments);
  }

  private static void require(String what, String name) {
    String problem = problem(name);
    if (problem != null) {
      throw BatonException.invalidArgument("invalid %s %s: it %s", what, quote(name), problem);
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
    return null;
  }

  /**
   * A name in double quotes, with control characters escaped so an error message stays one line.
   */
  private static String quote(String name) {
    StringBuilder quoted = new StringBuilder("\"");
    name.chars()
        .forEach(
            c -> {
              if (c < 0x20) {
                quoted.append(String.format("\\u%04x", c));
              } else {
                quoted.append((char) c);
              }
            });
    return quoted.append('"').toString();
  }
}
