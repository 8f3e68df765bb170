package dev.baton.devtools;

import dev.baton.core.Json;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The runtime file through which the Genkit CLI discovers this process: {@code
 * <projectRoot>/.genkit/runtimes/<pid>-<port>-<epochMillis>.json}, holding {@code id}, {@code pid},
 * {@code reflectionServerUrl}, {@code timestamp}, {@code genkitVersion} and {@code
 * reflectionApiSpecVersion} 1.
 *
 * <p>The project root is found exactly as the CLI finds it, so both agree on where to look: the
 * nearest directory, from the working directory up (the file system's root excluded), holding one
 * of the CLI's markers ({@link #MARKERS}); the working directory itself when none does.
 *
 * <p>Not thread-safe: {@link DevTools} writes and deletes it under its own lock.
 */
final class RuntimeFile {
  private static final Logger log = LoggerFactory.getLogger(RuntimeFile.class);

  /** The files that mark a project root for genkit-cli 1.43.0, in its order. */
  static final List<String> MARKERS =
      List.of(
          "package.json",
          "go.mod",
          "pyproject.toml",
          "requirements.txt",
          "pom.xml",
          "build.gradle",
          "build.gradle.kts",
          "pubspec.yaml");

  private final Path path;
  private final long pid;

  private RuntimeFile(Path path, long pid) {
    this.path = path;
    this.pid = pid;
  }

  /** The project root the CLI would pick, started from this working directory. */
  static Path projectRoot(Path workingDirectory) {
    Path start = workingDirectory.toAbsolutePath().normalize();
    for (Path dir = start; dir != null && dir.getParent() != null; dir = dir.getParent()) {
      for (String marker : MARKERS) {
        if (Files.exists(dir.resolve(marker))) {
          return dir;
        }
      }
    }
    return start;
  }

  /**
   * Writes the file for a server that is listening.
   *
   * @param id the runtime ID the health check compares with
   * @throws IOException when the directory or the file cannot be written
   */
  static RuntimeFile write(
      Path projectRoot, String id, long pid, URI url, Instant now, String genkitVersion)
      throws IOException {
    Path dir = projectRoot.resolve(".genkit").resolve("runtimes");
    Files.createDirectories(dir);
    Path file = dir.resolve(pid + "-" + url.getPort() + "-" + now.toEpochMilli() + ".json");
    ObjectNode content = Json.object();
    content.put("id", id);
    content.put("pid", pid);
    content.put("reflectionServerUrl", url.toString());
    content.put("timestamp", now.toString());
    content.put("genkitVersion", genkitVersion);
    content.put("reflectionApiSpecVersion", DevTools.REFLECTION_API_SPEC_VERSION);
    // Written beside the watched directory and moved in, so the CLI never reads half a file.
    Path temp = Files.createTempFile(dir.getParent(), "runtime-", ".tmp");
    try {
      Files.writeString(temp, Json.writePretty(content));
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
    return new RuntimeFile(file, pid);
  }

  Path path() {
    return path;
  }

  /** Deletes the file if it is still this process's; failures are logged, never thrown. */
  void delete() {
    try {
      if (!Files.exists(path)) {
        return;
      }
      JsonNode content = Json.parse(Files.readString(path));
      if (ownedBy(content)) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | RuntimeException e) {
      log.warn("could not remove the Genkit runtime file {}", path, e);
    }
  }

  private boolean ownedBy(@Nullable JsonNode content) {
    return content != null && content.path("pid").asLong(-1) == pid;
  }
}
