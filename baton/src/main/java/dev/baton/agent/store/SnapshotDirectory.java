package dev.baton.agent.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.store.RowHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The directory of one snapshot path prefix, {@code <dir>/<prefix>}: a file {@code <name>.json} per
 * row, pretty-printed, and a pointer file per session in {@code .pointers/<name>.json}, where
 * {@code <name>} is the {@linkplain FileNames file name} of the snapshot or session ID. Callers
 * validate IDs with {@link SafeIds} first. Each ID is looked up under its name and then, if it has
 * one, its {@linkplain FileNames#alternate alternate} name; a write leaves only the first.
 *
 * <p>Rows are replaced atomically, so reading needs no lock: a reader sees a whole old row or a
 * whole new one. Rows are written with {@code rowSync}. Pointers are overwritten in place and not
 * forced to the device at all, because a torn one is told by its checksum and a lost or stale one
 * is found by the verification {@link FileSessionStore} runs once per boot, and then costs a scan.
 *
 * <p>Errors name snapshots, never paths, since their messages reach callers; the paths go to the
 * log. A row file that is not a valid row, or that holds another snapshot than the one its name
 * stands for, is {@link Status#DATA_LOSS} (public), logged with its path as a warning.
 *
 * @param path the directory; created, private, on the first write
 * @param rowSync what a row write forces to the device
 */
record SnapshotDirectory(Path path, AtomicFiles.Sync rowSync) {
  private static final Logger log = LoggerFactory.getLogger(SnapshotDirectory.class);
  private static final String JSON_SUFFIX = ".json";
  private static final String POINTERS = ".pointers";
  private static final String VERIFIED_BOOTS = ".verified-boots";
  private static final int MAX_VERIFIED_BOOTS = 16;

  /** What a listing of the directory found. */
  record Listing(List<Path> rowFiles, boolean hasStaleTemps) {}

  /** The files a row may be in, the one it is written to first. */
  private List<Path> rowFiles(String snapshotId) {
    return files(path, snapshotId);
  }

  private List<Path> pointerFiles(String sessionId) {
    return files(pointersDir(), sessionId);
  }

  private static List<Path> files(Path dir, String id) {
    Path primary = dir.resolve(FileNames.primary(dir.getFileSystem(), id) + JSON_SUFFIX);
    String alternate = FileNames.alternate(dir.getFileSystem(), id);
    return alternate == null
        ? List.of(primary)
        : List.of(primary, dir.resolve(alternate + JSON_SUFFIX));
  }

  private Path pointersDir() {
    return path.resolve(POINTERS);
  }

  /**
   * The row, or null when there is none.
   *
   * @throws BatonException {@code DATA_LOSS} (public) when its file is not a valid row of that ID;
   *     {@code INTERNAL} (not public) when it cannot be read
   */
  @Nullable SessionSnapshot readRow(String snapshotId) {
    for (Path file : rowFiles(snapshotId)) {
      byte[] bytes;
      try {
        bytes = AtomicFiles.readIfExists(file);
      } catch (IOException e) {
        throw BatonException.internal("cannot read snapshot " + SafeIds.quote(snapshotId), e);
      }
      if (bytes != null) {
        return decodeRow(snapshotId, file, bytes);
      }
    }
    return null;
  }

  /** The header of a row, or null when it is missing, unreadable or not JSON (logged). */
  @Nullable RowHeader readHeader(String snapshotId) {
    List<Path> files = rowFiles(snapshotId);
    // Only an ID with an alternate name costs a look for which file exists.
    for (Path file : files.subList(0, files.size() - 1)) {
      if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        return readHeaderAt(file);
      }
    }
    return readHeaderAt(files.get(files.size() - 1));
  }

  /** The header of the row file at {@code rowFile}, or null (logged) as for {@link #readHeader}. */
  static @Nullable RowHeader readHeaderAt(Path rowFile) {
    try {
      byte[] bytes = AtomicFiles.readIfExists(rowFile);
      return bytes == null ? null : Json.mapper().readValue(bytes, RowHeader.class);
    } catch (IOException | JacksonException e) {
      log.debug("skipping unreadable snapshot file {}", rowFile, e);
      return null;
    }
  }

  /** Whether {@code file}, found by a listing, is where the row {@code snapshotId} belongs. */
  boolean isFileOf(Path file, String snapshotId) {
    return rowFiles(snapshotId).stream().anyMatch(f -> f.getFileName().equals(file.getFileName()));
  }

  /**
   * Writes a row, replacing any file of its ID.
   *
   * @throws BatonException {@code INTERNAL} (not public) when the file cannot be written
   */
  void writeRow(SessionSnapshot row) {
    List<Path> files = rowFiles(row.snapshotId());
    try {
      AtomicFiles.createPrivateDirectories(path);
      AtomicFiles.write(
          files.get(0), Json.writePretty(row).getBytes(StandardCharsets.UTF_8), rowSync);
    } catch (IOException e) {
      throw BatonException.internal("cannot write snapshot " + SafeIds.quote(row.snapshotId()), e);
    }
    files.subList(1, files.size()).forEach(AtomicFiles::deleteQuietly);
  }

  /** Deletes a row if it exists; a failure is logged, not thrown. */
  void deleteRow(String snapshotId) {
    rowFiles(snapshotId).forEach(AtomicFiles::deleteQuietly);
  }

  /**
   * The row files in this directory, regular files named {@code *.json} that are not hidden, and
   * whether it holds temporary files a writer left behind. Directories (nested prefixes, the
   * pointers) and temporary files are not rows. Empty when the directory does not exist. The
   * listing is not a snapshot of the directory: a row written or deleted meanwhile may or may not
   * be in it.
   *
   * @throws BatonException {@code INTERNAL} (not public) when the directory cannot be listed
   */
  Listing list() {
    List<Path> rows = new ArrayList<>();
    boolean staleTemps = false;
    Instant now = Instant.now();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.endsWith(JSON_SUFFIX)
            && !name.startsWith(".")
            && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
          rows.add(entry);
        } else if (!staleTemps && AtomicFiles.isStaleTemp(entry, now)) {
          staleTemps = true;
        }
      }
    } catch (NoSuchFileException e) {
      return new Listing(List.of(), false);
    } catch (IOException e) {
      throw BatonException.internal("cannot list a snapshot directory", e);
    }
    return new Listing(rows, staleTemps);
  }

  /**
   * Deletes the temporary files left behind in this directory and its pointers. The caller holds
   * the folder's {@link ProcessLock}, so no Baton writer is writing one; the age of a file guards
   * against writers that take no lock. Best effort: failures are logged.
   */
  void sweepStaleTemps() {
    Instant now = Instant.now();
    for (Path dir : List.of(path, pointersDir())) {
      try (DirectoryStream<Path> entries =
          Files.newDirectoryStream(dir, "*" + AtomicFiles.TEMP_SUFFIX)) {
        for (Path entry : entries) {
          if (AtomicFiles.isStaleTemp(entry, now)) {
            log.info("removing {}, left behind by an interrupted write", entry);
            AtomicFiles.deleteQuietly(entry);
          }
        }
      } catch (NoSuchFileException e) {
        // Nothing was ever written there.
      } catch (IOException e) {
        log.warn("could not look for temporary files in {}", dir, e);
      }
    }
  }

  /**
   * The snapshot directories under {@code root} that hold temporary files a writer left behind: the
   * folder of each such file, or the folder above when it is in {@code .pointers}. Best effort: a
   * tree that cannot be walked is logged and yields what was found.
   */
  static Set<Path> foldersWithStaleTemps(Path root) {
    Set<Path> folders = new LinkedHashSet<>();
    Instant now = Instant.now();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(file -> AtomicFiles.isStaleTemp(file, now))
          .map(Path::getParent)
          .filter(Objects::nonNull)
          .map(dir -> dir.endsWith(POINTERS) && dir.getParent() != null ? dir.getParent() : dir)
          .forEach(folders::add);
    } catch (IOException | UncheckedIOException e) {
      log.warn("could not look for temporary files under {}", root, e);
    }
    return folders;
  }

  /**
   * A session's pointer, or null when it is missing, unreadable, torn, or one this store did not
   * write (see {@link SessionPointer#fromFileContent}); logged.
   */
  @Nullable SessionPointer readPointer(String sessionId) {
    for (Path file : pointerFiles(sessionId)) {
      byte[] bytes;
      try {
        bytes = AtomicFiles.readIfExists(file);
      } catch (IOException e) {
        log.debug("ignoring unreadable session pointer {}", file, e);
        return null;
      }
      if (bytes != null) {
        SessionPointer pointer = SessionPointer.fromFileContent(bytes);
        if (pointer == null) {
          log.debug("ignoring session pointer {}: torn, or not written by Baton", file);
        }
        return pointer;
      }
    }
    return null;
  }

  /** Whether the session has a pointer file, whole or not. */
  boolean hasPointerFile(String sessionId) {
    return pointerFiles(sessionId).stream()
        .anyMatch(file -> Files.exists(file, LinkOption.NOFOLLOW_LINKS));
  }

  /**
   * Points a session at a row, overwriting its pointer in place without forcing it to the device
   * (see {@link AtomicFiles#overwrite}). Best-effort: on failure the pointer is deleted, and so is
   * the record that the folder's pointers were verified, so that the next read scans rather than
   * trusts it; a failure of both is logged.
   */
  void writePointer(String sessionId, SessionPointer pointer) {
    List<Path> files = pointerFiles(sessionId);
    try {
      AtomicFiles.createPrivateDirectories(pointersDir());
      AtomicFiles.overwrite(files.get(0), pointer.toFileContent());
      files.subList(1, files.size()).forEach(AtomicFiles::deleteQuietly);
    } catch (IOException e) {
      log.warn("could not write session pointer {}; removing it", files.get(0), e);
      files.forEach(AtomicFiles::deleteQuietly);
      AtomicFiles.deleteQuietly(verifiedBootsFile());
    }
  }

  /**
   * Whether this folder's pointers were verified against its rows during the boot {@code bootId}
   * (see {@link BootId}): since then, every pointer was written in that boot and none was lost, so
   * a whole one names its session's latest row (or an older one, if a process was killed between
   * writing a row and its pointer, before that save returned).
   */
  boolean pointersVerifiedIn(String bootId) {
    return verifiedBoots().contains(bootId);
  }

  /**
   * Records that this folder's pointers were verified during the boot {@code bootId}, keeping the
   * last {@value #MAX_VERIFIED_BOOTS} boots: hosts that share the folder over a network each need
   * their own. Not forced to the device: a crash of the machine starts a new boot anyway.
   *
   * @throws IOException when the record cannot be written
   */
  void recordPointersVerified(String bootId) throws IOException {
    List<String> boots = new ArrayList<>(verifiedBoots());
    boots.remove(bootId);
    boots.add(bootId);
    List<String> kept = boots.subList(Math.max(0, boots.size() - MAX_VERIFIED_BOOTS), boots.size());
    AtomicFiles.createPrivateDirectories(pointersDir());
    AtomicFiles.write(
        verifiedBootsFile(),
        (String.join("\n", kept) + "\n").getBytes(StandardCharsets.UTF_8),
        AtomicFiles.Sync.NONE);
  }

  /** The boots recorded by {@link #recordPointersVerified}; none when unreadable (logged). */
  private List<String> verifiedBoots() {
    try {
      byte[] bytes = AtomicFiles.readIfExists(verifiedBootsFile());
      return bytes == null ? List.of() : new String(bytes, StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      log.debug("cannot read {}", verifiedBootsFile(), e);
      return List.of();
    }
  }

  private Path verifiedBootsFile() {
    return pointersDir().resolve(VERIFIED_BOOTS);
  }

  /**
   * Decodes the row file of {@code snapshotId}: a JSON object whose {@code snapshotId} is that ID
   * and which has a string {@code createdAt}.
   */
  private static SessionSnapshot decodeRow(String snapshotId, Path file, byte[] bytes) {
    JsonNode tree;
    try {
      tree = Json.mapper().readTree(bytes);
      JsonNode id = tree.path("snapshotId");
      if (id.isString() && !id.stringValue().equals(snapshotId)) {
        throw damaged(snapshotId, file, "its file holds another snapshot", null);
      }
      if (id.isString() && tree.path("createdAt").isString()) {
        return Json.mapper().treeToValue(tree, SessionSnapshot.class);
      }
    } catch (JacksonException | IllegalArgumentException e) {
      throw damaged(snapshotId, file, "its file is not a valid row", e);
    }
    throw damaged(snapshotId, file, "its file is not a valid row", null);
  }

  private static BatonException damaged(
      String snapshotId, Path file, String problem, @Nullable Exception cause) {
    log.warn("snapshot file {} is damaged: {}", file, problem, cause);
    return new BatonException(
        Status.DATA_LOSS,
        "snapshot " + SafeIds.quote(snapshotId) + " is damaged: " + problem,
        null,
        true,
        cause);
  }
}
