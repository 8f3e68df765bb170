package dev.baton.agent.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The directory of one snapshot path prefix, {@code <dir>/<prefix>}: a file {@code
 * <snapshotId>.json} per row, pretty-printed, and a pointer file per session in {@code
 * .pointers/<sessionId>.json}. Callers validate IDs with {@link SafeIds} first.
 *
 * <p>Every file is replaced atomically, so reading needs no lock: a reader sees a whole old file or
 * a whole new one. Rows are written durably (forced to the device before the rename); pointers are
 * not, because a lost or stale pointer only costs a scan.
 *
 * @param path the directory; created, private, on the first write
 */
record SnapshotDirectory(Path path) {
  private static final Logger log = LoggerFactory.getLogger(SnapshotDirectory.class);
  private static final String JSON_SUFFIX = ".json";
  private static final String POINTERS = ".pointers";

  Path rowFile(String snapshotId) {
    return path.resolve(snapshotId + JSON_SUFFIX);
  }

  Path pointerFile(String sessionId) {
    return pointersDir().resolve(sessionId + JSON_SUFFIX);
  }

  private Path pointersDir() {
    return path.resolve(POINTERS);
  }

  /**
   * The row, or null when there is none.
   *
   * @throws BatonException {@code DATA_LOSS} when the file is not a valid row; {@code INTERNAL}
   *     when it cannot be read. Neither message is public, as both name a path.
   */
  @Nullable SessionSnapshot readRow(String snapshotId) {
    Path file = rowFile(snapshotId);
    byte[] bytes = read(file);
    if (bytes == null) {
      return null;
    }
    try {
      return decodeRow(bytes);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new BatonException(
          Status.DATA_LOSS, "snapshot file " + file + " is not a valid row", null, false, e);
    }
  }

  /** The row, or null when it is missing, unreadable or invalid (logged): for best-effort paths. */
  @Nullable SessionSnapshot readRowIfValid(String snapshotId) {
    try {
      return readRow(snapshotId);
    } catch (BatonException e) {
      log.warn("skipping snapshot {}", snapshotId, e);
      return null;
    }
  }

  /** The header of a row, or null when it is missing, unreadable or not JSON (logged). */
  @Nullable RowHeader readHeader(String snapshotId) {
    return readHeaderAt(rowFile(snapshotId));
  }

  /** {@link #readHeader(String)} for a row file named by its path. */
  static @Nullable RowHeader readHeaderAt(Path rowFile) {
    try {
      byte[] bytes = AtomicFiles.readIfExists(rowFile);
      return bytes == null ? null : Json.mapper().readValue(bytes, RowHeader.class);
    } catch (IOException | JacksonException e) {
      log.debug("skipping unreadable snapshot file {}", rowFile, e);
      return null;
    }
  }

  /**
   * Writes a row, replacing any file of its ID.
   *
   * @throws BatonException {@code INTERNAL} (not public) when the file cannot be written
   */
  void writeRow(SessionSnapshot row) {
    Path file = rowFile(row.snapshotId());
    try {
      AtomicFiles.createPrivateDirectories(path);
      AtomicFiles.write(file, Json.writePretty(row).getBytes(StandardCharsets.UTF_8), true);
    } catch (IOException e) {
      throw BatonException.internal("cannot write snapshot file " + file, e);
    }
  }

  /** Deletes a row if it exists; a failure is logged, not thrown. */
  void deleteRow(String snapshotId) {
    AtomicFiles.deleteQuietly(rowFile(snapshotId));
  }

  /**
   * The IDs of the rows in this directory: regular files named {@code <safe ID>.json}. Directories
   * (nested prefixes, the pointers), temporary files and other names are not rows. Empty when the
   * directory does not exist. The listing is not a snapshot of the directory: a row written or
   * deleted meanwhile may or may not be in it.
   *
   * @throws BatonException {@code INTERNAL} (not public) when the directory cannot be listed
   */
  List<String> rowIds() {
    List<String> ids = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.endsWith(JSON_SUFFIX) || !Files.isRegularFile(entry)) {
          continue;
        }
        String id = name.substring(0, name.length() - JSON_SUFFIX.length());
        if (SafeIds.isSafe(id)) {
          ids.add(id);
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw BatonException.internal("cannot list snapshot directory " + path, e);
    }
    return ids;
  }

  /** A session's pointer, or null when it is missing or unreadable (logged). */
  @Nullable SessionPointer readPointer(String sessionId) {
    Path file = pointerFile(sessionId);
    try {
      byte[] bytes = AtomicFiles.readIfExists(file);
      return bytes == null ? null : Json.mapper().readValue(bytes, SessionPointer.class);
    } catch (IOException | JacksonException e) {
      log.debug("ignoring unreadable session pointer {}", file, e);
      return null;
    }
  }

  /**
   * Points a session at a row. Best-effort: on failure the stale pointer is deleted, so that the
   * next read scans instead of trusting it; a failure of both is logged.
   */
  void writePointer(String sessionId, SessionPointer pointer) {
    Path file = pointerFile(sessionId);
    try {
      AtomicFiles.createPrivateDirectories(pointersDir());
      AtomicFiles.write(file, Json.writePretty(pointer).getBytes(StandardCharsets.UTF_8), false);
    } catch (IOException e) {
      log.warn("could not write session pointer {}; removing it", file, e);
      AtomicFiles.deleteQuietly(file);
    }
  }

  private static byte @Nullable [] read(Path file) {
    try {
      return AtomicFiles.readIfExists(file);
    } catch (IOException e) {
      throw BatonException.internal("cannot read snapshot file " + file, e);
    }
  }

  /** Decodes a row; a document without a string {@code snapshotId} and {@code createdAt} is not. */
  private static SessionSnapshot decodeRow(byte[] bytes) {
    JsonNode tree = Json.mapper().readTree(bytes);
    if (!tree.path("snapshotId").isString() || !tree.path("createdAt").isString()) {
      throw new IllegalArgumentException("a row needs a snapshotId and a createdAt");
    }
    return Json.mapper().treeToValue(tree, SessionSnapshot.class);
  }
}
