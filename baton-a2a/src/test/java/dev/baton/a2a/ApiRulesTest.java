package dev.baton.a2a;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.ArchTests;
import dev.baton.rules.ApiRules;

/** This module keeps the public-API rules of the core (see {@link ApiRules}). */
@AnalyzeClasses(packagesOf = A2aHandler.class, importOptions = ImportOption.DoNotIncludeTests.class)
class ApiRulesTest {
  @ArchTest static final ArchTests apiRules = ArchTests.in(ApiRules.class);
}
