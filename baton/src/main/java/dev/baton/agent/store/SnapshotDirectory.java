package dev.baton.agent.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.store.RowHeader;
import dev.baton.internal.store.SnapshotRules;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.databind.JsonNode;

/**
 * The directory of one snapshot path prefix, {@code <dir>/<prefix>}: a file {@code <name>.json} per
 * row, pretty-printed, and a pointer file per session in {@code .pointers/<name>.json}, where
 * {@code <name>} is the {@linkplain FileNames file name} of the snapshot or session ID. Callers
 * validate IDs with {@link SafeIds} first. Each ID is looked up under its name and then, if it has
 * one, its {@linkplain FileNames#alternate alternate} name; a write leaves only the first.
 *
 * <p>Rows and pointers are replaced by a rename, so reading needs no lock: a reader sees a whole
 * old row or a whole new one, and a whole old pointer, none, or a whole new one. Rows are written
 * with {@code rowSync}. Pointers are not forced to the device at all: a lost or stale one is found
 * by the verification {@link PointerVerifier} runs once per boot, and one a crash of the machine
 * left damaged fails its checksum; either costs a scan.
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

  /** The bit of each header field in {@link HeaderFields#mask}. */
  private static final Map<String, Integer> HEADER_BITS =
      Map.of(
          "snapshotId",
          1,
          "sessionId",
          2,
          "createdAt",
          4,
          "parentId",
          8,
          "status",
          16,
          "updatedAt",
          32);

  /** The header fields a read needs; it stops reading a row file once it holds them all. */
  enum HeaderFields {
    /** {@code snapshotId}, {@code sessionId} and {@code createdAt}: what ranks a session's rows. */
    RANK(0b111),
    /** What ranks a row, its status and {@code updatedAt}: what lists a folder's sessions. */
    LISTING(0b110111),
    /** Every field of {@link RowHeader}. */
    ALL(0b111111);

    private final int mask;

    HeaderFields(int mask) {
      this.mask = mask;
    }
  }

  /**
   * What a read of a row file's header found: the fields it read, and whether the file was valid
   * JSON as far as the read went. A damaged file's header holds the fields before the damage: a row
   * cut short still names its session, since the store writes {@code sessionId} near the top.
   */
  record HeaderRead(RowHeader header, boolean intact) {}

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
        throw BatonException.internal("cannot read snapshot " + SnapshotRules.quote(snapshotId), e);
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
    Path file = files.get(files.size() - 1);
    for (Path candidate : files.subList(0, files.size() - 1)) {
      if (Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
        file = candidate;
        break;
      }
    }
    HeaderRead read = readHeaderAt(file, HeaderFields.ALL);
    return read != null && read.intact() ? read.header() : null;
  }

  /** Whether the row has a file. */
  boolean rowExists(String snapshotId) {
    return rowFiles(snapshotId).stream()
        .anyMatch(file -> Files.exists(file, LinkOption.NOFOLLOW_LINKS));
  }

  /**
   * Reads the header of the row file at {@code rowFile}: streams the top-level fields, skipping the
   * others, and stops as soon as it holds {@code fields}, so that a scan reads the first block of a
   * row and never decodes its conversation, which the store writes after the header. The one header
   * decoder of the store: the scan, the verification of pointers, retention and the poller use it.
   *
   * @return what was read, or null when the file is missing or cannot be read (logged)
   */
  static @Nullable HeaderRead readHeaderAt(Path rowFile, HeaderFields fields) {
    try {
      return readHeaderOrThrow(rowFile, fields);
    } catch (IOException e) {
      log.debug("skipping unreadable snapshot file {}", rowFile, e);
      return null;
    }
  }

  /**
   * {@link #readHeaderAt}, for a pass that must not take a file it could not read for one that
   * holds no row: the per-boot verification, which would otherwise leave a committed row's session
   * pointing at an older one for the whole boot.
   *
   * @return what was read, or null when the file is missing
   * @throws IOException when the file cannot be opened or read (too many open files, say)
   */
  static @Nullable HeaderRead readHeaderOrThrow(Path rowFile, HeaderFields fields)
      throws IOException {
    String snapshotId = null;
    String sessionId = null;
    String parentId = null;
    Instant createdAt = null;
    Instant updatedAt = null;
    SnapshotStatus status = null;
    boolean intact = false;
    try (InputStream in = Files.newInputStream(rowFile);
        JsonParser parser = Json.mapper().createParser(in)) {
      if (parser.nextToken() == JsonToken.START_OBJECT) {
        int seen = 0;
        while ((seen & fields.mask) != fields.mask
            && parser.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = parser.currentName();
          parser.nextToken();
          switch (name) {
            case "snapshotId" -> snapshotId = parser.readValueAs(String.class);
            case "sessionId" -> sessionId = parser.readValueAs(String.class);
            case "createdAt" -> createdAt = parser.readValueAs(Instant.class);
            case "updatedAt" -> updatedAt = parser.readValueAs(Instant.class);
            case "parentId" -> parentId = parser.readValueAs(String.class);
            case "status" -> status = parser.readValueAs(SnapshotStatus.class);
            default -> parser.skipChildren();
          }
          seen |= HEADER_BITS.getOrDefault(name, 0);
        }
        intact = true;
      }
    } catch (NoSuchFileException e) {
      return null;
    } catch (JacksonIOException e) {
      // Jackson wraps a failed read of the stream; that is the file's fault no more than an open.
      throw e.getCause();
    } catch (JacksonException | IllegalArgumentException e) {
      log.debug("snapshot file {} is not valid JSON", rowFile, e);
    }
    return new HeaderRead(
        new RowHeader(snapshotId, sessionId, parentId, createdAt, updatedAt, status), intact);
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
      AtomicFiles.write(files.get(0), Json.writePrettyBytes(row), rowSync);
    } catch (IOException e) {
      throw BatonException.internal(
          "cannot write snapshot " + SnapshotRules.quote(row.snapshotId()), e);
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
    // The system's clock, not the store's: a temporary file's age is read against its mtime.
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
   * A session's pointer, or null when it is missing, unreadable, a symbolic link, damaged, or one
   * this store did not write (see {@link SessionPointer#fromFileContent}); logged.
   */
  @Nullable SessionPointer readPointer(String sessionId) {
    for (Path file : pointerFiles(sessionId)) {
      byte[] bytes;
      try {
        bytes = AtomicFiles.readIfExistsNoFollow(file);
      } catch (IOException e) {
        log.debug("ignoring unreadable session pointer {}", file, e);
        return null;
      }
      if (bytes != null) {
        SessionPointer pointer = SessionPointer.fromFileContent(bytes);
        if (pointer == null) {
          log.debug("ignoring session pointer {}: damaged, or not written by Baton", file);
        }
        return pointer;
      }
    }
    return null;
  }

  /**
   * Whether the session has a pointer file, whole or not, or what a pointer write cut short left
   * (see {@link AtomicFiles#replaceWithoutFlush}): in a folder verified during this boot, false
   * means the session has no rows.
   */
  boolean hasPointerFile(String sessionId) {
    return pointerFiles(sessionId).stream()
        .anyMatch(
            file ->
                Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                    || Files.exists(AtomicFiles.nextOf(file), LinkOption.NOFOLLOW_LINKS));
  }

  /**
   * Points a session at a row, with {@link AtomicFiles#replaceWithoutFlush}: a reader sees the old
   * pointer, none, or the new one, and nothing is forced to the device (see {@link
   * FileSessionStore} on why). A symbolic link planted in the pointer's place is deleted, never
   * written through. One planted at the new pointer's name ({@code <sessionId>.json.next}) is not
   * followed either: it fails the write, and with it every save of a new row of that session, until
   * it is removed. Planting either takes write access to the folder, which can delete rows anyway.
   *
   * @throws BatonException {@code INTERNAL} (not public) when it cannot be written; the pointer is
   *     then the old one, or missing with the leftover {@link #hasPointerFile} reports
   */
  void writePointer(String sessionId, SessionPointer pointer) {
    preparePointer(sessionId, pointer);
    promotePointer(sessionId);
  }

  /**
   * The first half of {@link #writePointer}: writes the new pointer beside the old one, as {@code
   * <sessionId>.json.next}, which Genkit Go never reads. While it stands, the pointer may be older
   * than a committed row ({@link #pointerPending}): a save writes it before its row, and promotes
   * it after.
   *
   * @throws BatonException {@code INTERNAL} (not public) when it cannot be written
   */
  void preparePointer(String sessionId, SessionPointer pointer) {
    Path file = pointerFiles(sessionId).get(0);
    try {
      AtomicFiles.createPrivateDirectories(pointersDir());
      AtomicFiles.writeNext(file, pointer.toFileContent());
    } catch (IOException e) {
      log.warn("could not write session pointer {}", AtomicFiles.nextOf(file), e);
      throw BatonException.internal(
          "cannot write the pointer of session " + SnapshotRules.quote(sessionId), e);
    }
  }

  /**
   * The second half of {@link #writePointer}: puts the pointer {@link #preparePointer} wrote in the
   * old one's place.
   *
   * @throws BatonException {@code INTERNAL} (not public) when that fails; the new pointer then
   *     stays beside the old one, or alone
   */
  void promotePointer(String sessionId) {
    List<Path> files = pointerFiles(sessionId);
    try {
      AtomicFiles.promoteNext(files.get(0));
    } catch (IOException e) {
      // Not logged here: each caller logs the failure once, as what it means to it.
      throw BatonException.internal(
          "cannot write the pointer of session " + SnapshotRules.quote(sessionId), e);
    }
    files.subList(1, files.size()).forEach(AtomicFiles::deleteQuietly);
  }

  /**
   * Whether a new pointer of the session stands beside the old one, {@link #preparePointer written}
   * but not promoted: a save is between its row and its pointer, or was killed or failed there, or
   * a pointer write was cut short. The pointer may then be older than a committed row.
   */
  boolean pointerPending(String sessionId) {
    return Files.exists(
        AtomicFiles.nextOf(pointerFiles(sessionId).get(0)), LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * Removes every new pointer left beside an old one, except those of {@code sessionsWithRows}: the
   * caller, holding the folder's lock, has just pointed every session with an intact row at its
   * latest row, and found no row file at all naming any other session, so the pointers removed are
   * of sessions without rows (a save that failed before its row). A session whose row files are all
   * damaged keeps its new pointer, so that its reads keep scanning.
   *
   * @throws IOException when {@code .pointers} cannot be listed
   */
  void removePendingPointersExceptOf(Set<String> sessionsWithRows) throws IOException {
    if (!Files.isDirectory(pointersDir(), LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Set<Path> kept = new HashSet<>();
    for (String sessionId : sessionsWithRows) {
      pointerFiles(sessionId).forEach(file -> kept.add(AtomicFiles.nextOf(file).getFileName()));
    }
    try (Stream<Path> files = Files.list(pointersDir())) {
      files
          .filter(file -> file.getFileName().toString().endsWith(AtomicFiles.NEXT_SUFFIX))
          .filter(file -> !kept.contains(file.getFileName()))
          .forEach(AtomicFiles::deleteQuietly);
    }
  }

  /**
   * Whether this folder's pointers were verified against its rows during the boot {@code bootId}
   * (see {@link BootId}): since then, every pointer was written in that boot and none was lost, so
   * a whole one names its session's latest row, unless a new pointer is {@link #pointerPending
   * pending}, or names a row that was never written (one Genkit Go wrote).
   *
   * @throws IOException when the record cannot be read: a save must not take that for "not
   *     verified", since other processes may trust the pointers
   */
  boolean pointersVerifiedIn(String bootId) throws IOException {
    return verifiedBoots().contains(bootId);
  }

  /**
   * Records that this folder's pointers were verified during the boot {@code bootId}, keeping the
   * last {@value #MAX_VERIFIED_BOOTS} boots. Not forced to the device: a crash of the machine
   * starts a new boot anyway.
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

  /** The boots recorded by {@link #recordPointersVerified}. */
  private List<String> verifiedBoots() throws IOException {
    byte[] bytes = AtomicFiles.readIfExists(verifiedBootsFile());
    return bytes == null ? List.of() : new String(bytes, StandardCharsets.UTF_8).lines().toList();
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
        "snapshot " + SnapshotRules.quote(snapshotId) + " is damaged: " + problem,
        null,
        true,
        cause);
  }
}
