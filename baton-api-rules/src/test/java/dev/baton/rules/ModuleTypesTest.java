package dev.baton.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.rules.fixtures.WideValues;
import org.junit.jupiter.api.Test;

class ModuleTypesTest {

  /**
   * The main classes of this module, and not its test classes in the same package; not the
   * anonymous and private nested classes (ApiRules$1, JsonCopyContract$Site) nor package-info.
   */
  @Test
  void publicTypesAreTheNameableClassesOfTheAnchorsModuleOnly() {
    assertThat(ModuleTypes.publicTypes(ModuleTypes.class))
        .containsExactly(
            ApiRules.class, JsonCopyContract.class, JsonHolder.class, ModuleTypes.class);
  }

  /** A classes directory of the same packages is a module of its own; public nested types count. */
  @Test
  void anotherRootOfTheSamePackagesListsItsOwnTypes() {
    assertThat(ModuleTypes.publicTypes(WideValues.class))
        .contains(WideValues.class, WideValues.Bare.class, WideValues.Built.Builder.class)
        .doesNotContain(ModuleTypes.class, ModuleTypesTest.class);
  }
}
