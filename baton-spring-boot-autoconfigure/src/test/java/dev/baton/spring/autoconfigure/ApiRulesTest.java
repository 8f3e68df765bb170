package dev.baton.spring.autoconfigure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.baton.rules.ApiRules;
import java.util.regex.Pattern;

/**
 * This module keeps the public-API rules of the core (see {@link ApiRules}), but one: its only wide
 * public records are {@link BatonProperties} and the records nested in it, which Spring Boot binds
 * from the {@code baton.*} properties through their constructors; applications set properties and
 * never build them, so they offer no builder. Any other wide record would have to.
 */
@AnalyzeClasses(
    packagesOf = BatonAutoConfiguration.class,
    importOptions = ImportOption.DoNotIncludeTests.class)
class ApiRulesTest {
  @ArchTest
  static final ArchRule wideValuesAreBuiltThroughTheirBuildersAndFactories =
      ApiRules.wideValuesAreBuiltThroughTheirBuildersAndFactories;

  @ArchTest
  static final ArchRule theOnlyWideValuesAreTheBoundProperties =
      classes()
          .that(ApiRules.WIDE_PUBLIC_RECORDS)
          .should()
          .haveNameMatching(Pattern.quote(BatonProperties.class.getName()) + "(\\$.*)?")
          .allowEmptyShould(true);
}
