package dev.baton;

import static com.tngtech.archunit.lang.conditions.ArchConditions.be;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.jspecify.annotations.NullMarked;

/**
 * Holds the package layering, the forbidden dependencies and the nullness convention of DESIGN.md.
 */
@AnalyzeClasses(packages = "dev.baton", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

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
          .definedBy("dev.baton.middleware..")
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

  /**
   * A wide value's positional constructor freezes its shape, so Baton builds them the way users do:
   * through their builders and named factories. Only the type itself (its factories and builder)
   * calls the canonical constructor.
   */
  @ArchTest
  static final ArchRule wideValuesAreBuiltThroughTheirBuildersAndFactories =
      noClasses()
          .should()
          .callConstructorWhere(
              DescribedPredicate.describe(
                  "the canonical constructor of a wide value, from outside that value",
                  (JavaConstructorCall call) -> {
                    JavaClass target = call.getTargetOwner();
                    JavaClass caller = call.getOriginOwner();
                    boolean wide =
                        target.isRecord()
                            && target.getModifiers().contains(JavaModifier.PUBLIC)
                            && call.getTarget().getRawParameterTypes().size() >= 6
                            && target.getPackageName().startsWith("dev.baton")
                            && !target.getPackageName().contains(".internal");
                    boolean inside =
                        caller.equals(target)
                            || caller.getEnclosingClass().map(target::equals).orElse(false);
                    return wide && !inside;
                  }));

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
