package dev.baton.rules;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/** A module of the tests' making: some compiled classes copied to a root of their own. */
final class ClassRoots {
  private ClassRoots() {}

  static void copy(Path root, Class<?>... classes) throws IOException {
    for (Class<?> type : classes) {
      String file = type.getName().replace('.', '/') + ".class";
      Path target = root.resolve(file);
      Files.createDirectories(target.getParent());
      try (InputStream in = type.getClassLoader().getResourceAsStream(file)) {
        Files.copy(in, target);
      }
    }
  }

  /** A class loader over {@code root} alone, so the classes not copied there are missing. */
  static URLClassLoader isolated(Path root) throws IOException {
    return new URLClassLoader(
        new URL[] {root.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
  }
}
