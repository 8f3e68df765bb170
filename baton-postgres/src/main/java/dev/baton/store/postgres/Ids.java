package dev.baton.store.postgres;

import dev.baton.core.BatonException;
import dev.baton.internal.store.SnapshotRules;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Validation of the names the store keeps in key columns: snapshot IDs, session IDs and tenants,
 * and of the schema name it puts into SQL.
 *
 * <p>A valid ID is non-empty, well-formed UTF-16 (as in every store: the driver would send a lone
 * surrogate as {@code ?}, aliasing another ID), at most {@value #MAX_BYTES} bytes in UTF-8, and has
 * no control character (below U+0020): PostgreSQL text cannot hold NUL, the keys of the session
 * index must stay well under the size of an index entry, and a notification payload names a row by
 * its tenant and ID. Path characters are fine here, unlike in the file store.
 */
final class Ids {
  /** The longest ID or tenant, in UTF-8 bytes. */
  static final int MAX_BYTES = 256;

  /** Lower-case SQL identifiers, short enough that {@code baton_status_<schema>} is one too. */
  private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,49}");

  private Ids() {}

  /**
   * @throws BatonException {@code INVALID_ARGUMENT} when the snapshot ID is not valid
   */
  static void requireSnapshotId(String snapshotId) {
    require("snapshot ID", snapshotId);
  }

  /**
   * @throws BatonException {@code INVALID_ARGUMENT} when the session ID is not valid
   */
  static void requireSessionId(String sessionId) {
    require("session ID", sessionId);
  }

  /**
   * A tenant as the store keeps it: split at {@code /}, empty segments dropped, joined again, so
   * {@code /org-42//user-7/} and {@code org-42/user-7} are one tenant, as they are one directory in
   * the file store.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when nothing is left (an empty or
   *     separator-only tenant), or the result is not a valid ID
   */
  static String tenant(String raw) {
    List<String> segments = new ArrayList<>();
    for (String segment : raw.split("/", -1)) {
      if (!segment.isEmpty()) {
        segments.add(segment);
      }
    }
    if (segments.isEmpty()) {
      throw BatonException.invalidArgument(
          "invalid tenant %s: it names no tenant; leave the tenant option out to use the default",
          SnapshotRules.quote(raw));
    }
    String tenant = String.join("/", segments);
    require("tenant", tenant);
    return tenant;
  }

  /**
   * @throws IllegalArgumentException when the schema name is not a lower-case SQL identifier of at
   *     most 50 characters
   */
  static String schema(String name) {
    if (!SCHEMA.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "schema must be a lower-case SQL identifier of at most 50 characters ([a-z_][a-z0-9_]*),"
              + " got "
              + SnapshotRules.quote(name));
    }
    return name;
  }

  private static void require(String what, String value) {
    if (value.isEmpty()) {
      throw BatonException.invalidArgument("invalid %s: it is empty", what);
    }
    // Before anything encodes it: the driver would send a lone surrogate as "?", another ID.
    SnapshotRules.requireWellFormed(what, value);
    if (value.chars().anyMatch(c -> c < 0x20)) {
      throw BatonException.invalidArgument(
          "invalid %s %s: it contains a control character", what, SnapshotRules.quote(value));
    }
    if (value.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      throw BatonException.invalidArgument(
          "invalid %s: it is longer than %d bytes in UTF-8", what, MAX_BYTES);
    }
  }
}
