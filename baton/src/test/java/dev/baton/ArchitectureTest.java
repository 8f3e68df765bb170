package dev.baton;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Holds the package layering and the forbidden dependencies of DESIGN.md. */
@AnalyzeClasses(packages = "dev.baton", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule layersDependOnlyDownwards =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("Facade")
          .definedBy("dev.baton")
          .layer("Core")
          .definedBy("dev.baton.core..")
          .layer("AI")
          .definedBy("dev.baton.ai..")
          .layer("Agent")
          .definedBy("dev.baton.agent..")
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
}
