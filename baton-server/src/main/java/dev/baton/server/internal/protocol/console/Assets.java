package dev.baton.server.internal.protocol.console;

import dev.baton.core.BatonException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The console page's static files, read from the jar (classpath {@value #ROOT}) once and kept. A
 * file is named by one path segment of letters, digits, {@code .}, {@code -} and {@code _}, not
 * starting with a dot, and must have a known type: no other file of the jar is ever served.
 * Thread-safe.
 */
final class Assets {
  static final String ROOT = "dev/baton/server/console/";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*");
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8");

  /** A file with its content type. Its bytes are shared by every answer, which only reads them. */
  static final class Asset {
    private final String contentType;
    private final byte[] bytes;

    private Asset(String contentType, byte[] bytes) {
      this.contentType = contentType;
      this.bytes = bytes;
    }

    String contentType() {
      return contentType;
    }

    byte[] bytes() {
      return bytes;
    }
  }

  // A missing file is kept as empty, so it is looked up once.
  private final Map<String, Optional<Asset>> loaded = new ConcurrentHashMap<>();

  /**
   * The file of this name.
   *
   * @throws BatonException {@code NOT_FOUND} when there is none, or the name is not a file's
   */
  Asset get(String name) {
    String type = type(name);
    if (type == null) {
      throw notFound(name);
    }
    return loaded.computeIfAbsent(name, n -> load(n, type)).orElseThrow(() -> notFound(name));
  }

  private static @Nullable String type(String name) {
    int dot = name.lastIndexOf('.');
    if (!NAME.matcher(name).matches() || dot < 0) {
      return null;
    }
    return TYPES.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
  }

  private static Optional<Asset> load(String name, String type) {
    // Through the module: its resources are its own, whether it runs as a module or not.
    try (InputStream in = Assets.class.getModule().getResourceAsStream(ROOT + name)) {
      return in == null ? Optional.empty() : Optional.of(new Asset(type, in.readAllBytes()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the console's " + name, e);
    }
  }

  private static BatonException notFound(String name) {
    return BatonException.notFound("the console has no file \"%s\"", name);
  }
}
