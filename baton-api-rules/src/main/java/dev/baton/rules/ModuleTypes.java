package dev.baton.rules;

import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The classes of one module: those of the jar, or the classes directory, that holds an anchor type.
 * A module's tests see other modules' classes in the same packages on their class path (baton's
 * tests see this module's {@code dev.baton.rules}); importing by location keeps a module's rules
 * about that module.
 */
public final class ModuleTypes {
  // Listed once per anchor: a module's JSON contract asks for them in each of its tests, and its
  // API test asks again.
  private static final ClassValue<List<Class<?>>> PUBLIC_TYPES =
      new ClassValue<>() {
        @Override
        protected List<Class<?>> computeValue(Class<?> anchor) {
          return listPublicTypes(anchor);
        }
      };

  private ModuleTypes() {}

  /**
   * What users of the module that holds {@code anchor} can name: its public types, nested ones only
   * inside public types, outside the {@code internal} packages the module does not export. Sorted
   * by name.
   *
   * <p>It lists the module's class files and loads them (uninitialised) rather than importing them
   * with ArchUnit, whose import also resolves every type they refer to from the class path: the
   * JSON contract asks for the types once per test, and each import of baton's classes took seconds
   * (15 on a busy machine). The list is made once per anchor and shared.
   */
  public static List<Class<?>> publicTypes(Class<?> anchor) {
    return PUBLIC_TYPES.get(anchor);
  }

  private static List<Class<?>> listPublicTypes(Class<?> anchor) {
    Path root = root(anchor);
    try (FileSystem jar = Files.isDirectory(root) ? null : FileSystems.newFileSystem(root);
        Stream<Path> files = Files.walk(jar == null ? root : jar.getPath("/"))) {
      Path base = jar == null ? root : jar.getPath("/");
      List<String> names =
          files
              .map(file -> base.relativize(file).toString())
              .filter(name -> name.endsWith(".class") && !name.startsWith("META-INF"))
              .map(name -> name.substring(0, name.length() - ".class".length()))
              .map(name -> name.replace(base.getFileSystem().getSeparator(), "."))
              .filter(name -> !name.endsWith("module-info") && !name.endsWith("package-info"))
              // Internal classes are left unloaded: they may need an optional dependency that the
              // test class path lacks, and they are not the module's API anyway.
              .filter(name -> !isInternal(name))
              .sorted()
              .toList();
      List<Class<?>> types = new ArrayList<>();
      for (String name : names) {
        Class<?> type = load(name, anchor.getClassLoader());
        if (isNameable(type)) {
          types.add(type);
        }
      }
      return List.copyOf(types);
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("cannot list the classes under " + root, e);
    }
  }

  /**
   * An import option that keeps the classes of the module that holds {@code anchor}, for a module
   * whose tests import a package another module on their class path shares.
   */
  public static ImportOption only(Class<?> anchor) {
    String root = root(anchor).toUri().getRawPath();
    return location -> location.contains(root);
  }

  private static Path root(Class<?> anchor) {
    try {
      return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("the location of " + anchor + " is not a path", e);
    }
  }

  private static boolean isInternal(String className) {
    int end = className.lastIndexOf('.');
    String packageName = end < 0 ? "" : className.substring(0, end);
    return packageName.endsWith(".internal") || packageName.contains(".internal.");
  }

  /**
   * A class, uninitialised. One that cannot be linked (it names a type of an optional dependency
   * the test class path lacks) cannot be told apart from API, so it is reported, not skipped.
   */
  private static Class<?> load(String name, ClassLoader loader) throws ClassNotFoundException {
    try {
      return Class.forName(name, false, loader);
    } catch (LinkageError e) {
      throw new IllegalStateException(
          "cannot load "
              + name
              + " to tell whether it is API: a type it names is missing from the class path (an"
              + " optional dependency?); add it to the module's test dependencies",
          e);
    }
  }

  private static boolean isNameable(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
      if (!Modifier.isPublic(c.getModifiers())) {
        return false;
      }
    }
    return !type.isAnonymousClass() && !type.isLocalClass() && !type.isSynthetic();
  }
}
