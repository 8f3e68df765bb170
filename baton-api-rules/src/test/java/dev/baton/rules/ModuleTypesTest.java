package dev.baton.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.rules.fixtures.WideValues;
import dev.baton.rules.fixtures.linkage.Anchor;
import dev.baton.rules.fixtures.linkage.PublicUsesOptional;
import dev.baton.rules.fixtures.linkage.internal.UsesOptional;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModuleTypesTest {

  /**
   * The main classes of this module, and not its test classes in the same package; not the
   * anonymous and private nested classes (ApiRules$1, JsonCopyContract$Site) nor package-info.
   */
  @Test
  void publicTypesAreTheNameableClassesOfTheAnchorsModuleOnly() {
    assertThat(ModuleTypes.publicTypes(ModuleTypes.class))
        .containsExactly(
            ApiRules.class,
            ApiSignatures.class,
            JsonCopyContract.class,
            JsonHolder.class,
            ModuleTypes.class);
  }

  /** A classes directory of the same packages is a module of its own; public nested types count. */
  @Test
  void anotherRootOfTheSamePackagesListsItsOwnTypes() {
    assertThat(ModuleTypes.publicTypes(WideValues.class))
        .contains(WideValues.class, WideValues.Bare.class, WideValues.Built.Builder.class)
        .doesNotContain(ModuleTypes.class, ModuleTypesTest.class);
  }

  /** The JSON contract asks in each of its tests, so a module's classes are listed only once. */
  @Test
  void aModulesTypesAreListedOnceAndShared() {
    assertThat(ModuleTypes.publicTypes(WideValues.class))
        .isSameAs(ModuleTypes.publicTypes(WideValues.class));
  }

  /**
   * An internal class that needs an optional dependency the class path lacks is not loaded, so the
   * module's API is still listed.
   */
  @Test
  void internalClassesAreNotLoadedSoAMissingOptionalDependencyDoesNotMatter(@TempDir Path root)
      throws Exception {
    ClassRoots.copy(root, Anchor.class, UsesOptional.class);
    try (URLClassLoader module = ClassRoots.isolated(root)) {
      Class<?> anchor = module.loadClass(Anchor.class.getName());

      assertThat(ModuleTypes.publicTypes(anchor)).containsExactly(anchor);
    }
  }

  /** An API class that cannot be loaded is named, with what to do, rather than skipped. */
  @Test
  void anApiClassThatCannotBeLoadedIsNamed(@TempDir Path root) throws Exception {
    ClassRoots.copy(root, Anchor.class, PublicUsesOptional.class);
    try (URLClassLoader module = ClassRoots.isolated(root)) {
      Class<?> anchor = module.loadClass(Anchor.class.getName());

      assertThatThrownBy(() -> ModuleTypes.publicTypes(anchor))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(PublicUsesOptional.class.getName())
          .hasMessageContaining("optional dependency");
    }
  }
}
