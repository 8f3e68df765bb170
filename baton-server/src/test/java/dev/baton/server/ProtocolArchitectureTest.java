package dev.baton.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The wire protocol is written once, for every server: its package depends on no server's types, so
 * each binding (Jetty's core handler, the servlet) plugs in through its transport alone.
 */
@AnalyzeClasses(
    packagesOf = BatonServer.class,
    importOptions = ImportOption.DoNotIncludeTests.class)
class ProtocolArchitectureTest {
  @ArchTest
  static final ArchRule protocolImportsNoServer =
      noClasses()
          .that()
          .resideInAPackage("dev.baton.server.internal.protocol..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("org.eclipse.jetty..", "jakarta.servlet..", "javax.servlet..")
          .because("bindings plug the protocol into a server through its Transport");

  @ArchTest
  static final ArchRule jettyStaysOutOfTheServletBinding =
      noClasses()
          .that()
          .resideInAPackage("dev.baton.server.internal.servlet..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("org.eclipse.jetty..")
          .because("the servlet binding runs on any servlet container");
}
