package dev.baton.rules;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/**
 * Rules for the public API that every library module keeps, so a plugin or a store holds the
 * standard of the core. Baton's own {@code ArchitectureTest} and a small test in each module run
 * them all with {@code ArchTests.in(ApiRules.class)}; each module imports only its own packages,
 * and the rules reach the types of other modules through the class path. They live in the
 * build-only module baton-api-rules, a test dependency of every library module.
 */
public final class ApiRules {
  /** A record this wide is read as a value that will grow, not as a pair or a triple. */
  static final int WIDE = 6;

  private ApiRules() {}

  /**
   * A wide value's positional constructor freezes its shape: a field added later changes it, and
   * every call breaks. A Java record cannot hide its canonical constructor, so the rule is kept by
   * use instead: only the type itself (its factories and builder) calls it, and Baton's modules
   * build wide values the way their users do.
   */
  @ArchTest
  public static final ArchRule wideValuesAreBuiltThroughTheirBuildersAndFactories =
      noClasses()
          .should()
          .callConstructorWhere(
              DescribedPredicate.describe(
                  "the canonical constructor of a wide value, from outside that value",
                  (JavaConstructorCall call) -> {
                    JavaClass target = call.getTargetOwner();
                    JavaClass caller = call.getOriginOwner();
                    boolean wide =
                        isPublicBatonRecord(target)
                            && call.getTarget().getRawParameterTypes().size() >= WIDE;
                    boolean inside =
                        caller.equals(target)
                            || caller.getEnclosingClass().map(target::equals).orElse(false);
                    return wide && !inside;
                  }));

  /**
   * The other half of the rule above: a wide value gives its users a way in that is not the
   * positional constructor, a builder or a named factory, or they would have no other choice.
   */
  @ArchTest
  public static final ArchRule wideValuesOfferABuilderOrAFactory =
      classes()
          .that(
              DescribedPredicate.describe(
                  "are wide public records",
                  (JavaClass type) ->
                      isPublicBatonRecord(type)
                          && type.getConstructors().stream()
                              .anyMatch(c -> c.getRawParameterTypes().size() >= WIDE)))
          .should(
              new ArchCondition<>("declare a public static builder or factory") {
                @Override
                public void check(JavaClass type, ConditionEvents events) {
                  boolean offered =
                      type.getMethods().stream()
                          .filter(m -> m.getModifiers().contains(JavaModifier.STATIC))
                          .filter(m -> m.getModifiers().contains(JavaModifier.PUBLIC))
                          .map(JavaCodeUnit::getRawReturnType)
                          .anyMatch(
                              returned ->
                                  returned.equals(type)
                                      || returned
                                          .getEnclosingClass()
                                          .map(type::equals)
                                          .orElse(false));
                  events.add(
                      new SimpleConditionEvent(
                          type,
                          offered,
                          type.getName()
                              + (offered ? " offers" : " offers no")
                              + " public static builder or factory"));
                }
              })
          // Most plugin modules declare no wide value at all.
          .allowEmptyShould(true);

  /** A record users can name: public, and not in one of Baton's internal packages. */
  private static boolean isPublicBatonRecord(JavaClass type) {
    return type.isRecord()
        && type.getModifiers().contains(JavaModifier.PUBLIC)
        && type.getPackageName().startsWith("dev.baton")
        && !type.getPackageName().contains(".internal");
  }
}
