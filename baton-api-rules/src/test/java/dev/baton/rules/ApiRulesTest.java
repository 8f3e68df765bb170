package dev.baton.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.baton.rules.fixtures.WideValues;
import org.junit.jupiter.api.Test;

class ApiRulesTest {
  // The fixtures package holds other rules' records too, some of them wide.
  private static final JavaClasses FIXTURES =
      new ClassFileImporter()
          .importPackagesOf(WideValues.class)
          .that(JavaClass.Predicates.belongToAnyOf(WideValues.class));

  @Test
  void theWideRecordsAreThoseWithAConstructorOfThreeParametersOrMore() {
    assertThat(FIXTURES.that(ApiRules.WIDE_PUBLIC_RECORDS))
        .extracting(JavaClass::getSimpleName)
        .containsExactlyInAnyOrder("Bare", "WideFactory", "NarrowFactory", "Built", "NotABuilder");
  }

  @Test
  void aWideValueOffersABuilderOrAFactoryNarrowerThanItsConstructor() {
    EvaluationResult result = ApiRules.wideValuesOfferABuilderOrANarrowFactory.evaluate(FIXTURES);

    assertThat(result.getFailureReport().getDetails())
        .containsExactlyInAnyOrder(
            failure(WideValues.Bare.class),
            failure(WideValues.WideFactory.class),
            failure(WideValues.NotABuilder.class));
  }

  private static String failure(Class<?> type) {
    return type.getName()
        + " offers no public static builder or factory of fewer than 3 parameters";
  }
}
