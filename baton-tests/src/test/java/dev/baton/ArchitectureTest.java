package dev.baton;

import static com.tngtech.archunit.lang.conditions.ArchConditions.be;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.ArchTests;
import com.tngtech.archunit.lang.ArchRule;
import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.GenerationUsage;
import dev.baton.rules.ApiRules;
import dev.baton.rules.ModuleTypes;
import org.jspecify.annotations.NullMarked;

/**
 * Holds the package layering, the forbidden dependencies and the nullness convention of
 * docs/architecture.md, and the public-API rules that every library module keeps.
 */
@AnalyzeClasses(
    packages = "dev.baton",
    importOptions = {ImportOption.DoNotIncludeTests.class, ArchitectureTest.BatonJarOnly.class})
class ArchitectureTest {

  /**
   * The baton jar's classes only: the tests' class path also holds baton-api-rules, whose package
   * dev.baton.rules these rules are not about.
   */
  static final class BatonJarOnly implements ImportOption {
    private final ImportOption batonJar = ModuleTypes.only(Baton.class);

    @Override
    public boolean includes(Location location) {
      return batonJar.includes(location);
    }
  }

  @ArchTest
  static final ArchRule layersDependOnlyDownwards =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("Facade")
          .definedBy("dev.baton")
          .layer("Core")
          .definedBy("dev.baton.core..", "dev.baton.internal.core..", "dev.baton.internal.http..")
          .layer("AI")
          .definedBy("dev.baton.ai..", "dev.baton.internal.ai..")
          .layer("Agent")
          .definedBy("dev.baton.agent..", "dev.baton.internal.agent..")
          .layer("Middleware")
          .definedBy("dev.baton.middleware..", "dev.baton.internal.middleware..")
          .whereLayer("Facade")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("Middleware")
          .mayOnlyBeAccessedByLayers("Facade")
          .whereLayer("Agent")
          .mayOnlyBeAccessedByLayers("Middleware", "Facade")
          .whereLayer("AI")
          .mayOnlyBeAccessedByLayers("Agent", "Middleware", "Facade");

  @ArchTest
  static final ArchRule noServerOrDatabaseClassesInTheCore =
      noClasses()
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.eclipse.jetty..", "java.sql..", "javax.sql..", "io.opentelemetry.sdk..")
          .because("Jetty, JDBC and the OpenTelemetry SDK belong to their own modules");

  @ArchTest
  static final ArchRule noLoggingBackend =
      noClasses()
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("ch.qos.logback..", "org.apache.logging.log4j.core..")
          .because(
              "a library logs through the SLF4J API and leaves the backend to the application");

  /** The public-API rules every library module keeps (see {@link ApiRules}). */
  @ArchTest static final ArchTests apiRules = ArchTests.in(ApiRules.class);

  /**
   * The wide-value rules pass on an empty match, as they must in a module without wide values; in
   * this one, which has them, an empty match would mean the rules check nothing.
   */
  @ArchTest
  static void theWideValueRulesSeeBatonsWideValues(JavaClasses classes) {
    assertThat(classes.that(ApiRules.WIDE_PUBLIC_RECORDS))
        .extracting(JavaClass::getName)
        .contains(SessionSnapshot.class.getName(), GenerationUsage.class.getName());
  }

  /** NullAway checks only {@code @NullMarked} code: a package without it would go unchecked. */
  @ArchTest
  static final ArchRule everyPackageIsNullMarked =
      classes()
          .should(
              be(
                  DescribedPredicate.describe(
                      "in a package whose package-info is @NullMarked",
                      (JavaClass type) ->
                          type.getPackage()
                              .tryGetPackageInfo()
                              .map(info -> info.isAnnotatedWith(NullMarked.class))
                              .orElse(false))));
}
