package dev.baton.rules;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/**
 * The classes of one module: those of the jar, or the classes directory, that holds an anchor type.
 * A module's tests see other modules' classes in the same packages on their class path (baton's
 * tests see this module's {@code dev.baton.rules}); importing by location keeps a module's rules
 * about that module.
 */
public final class ModuleTypes {
  private ModuleTypes() {}

  /** The main classes of the module that holds {@code anchor}. */
  public static JavaClasses of(Class<?> anchor) {
    return new ClassFileImporter().importLocations(List.of(Location.of(root(anchor))));
  }

  /**
   * What users of the module that holds {@code anchor} can name: its public types, nested ones only
   * inside public types, outside the {@code internal} packages the module does not export.
   */
  public static List<Class<?>> publicTypes(Class<?> anchor) {
    return of(anchor).stream()
        .filter(type -> !type.getPackageName().contains(".internal"))
        .filter(type -> !type.getSimpleName().equals("module-info"))
        .map(JavaClass::reflect)
        .filter(ModuleTypes::isNameable)
        .toList();
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

  private static boolean isNameable(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
      if (!Modifier.isPublic(c.getModifiers())) {
        return false;
      }
    }
    return !type.isAnonymousClass() && !type.isLocalClass() && !type.isSynthetic();
  }
}
