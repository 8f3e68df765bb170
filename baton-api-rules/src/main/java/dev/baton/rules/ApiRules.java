package dev.baton.rules;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethod;
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
  /**
   * A record this wide is read as a value that may grow, not as a pair: from three components on,
   * users build it through factories and withers or a builder, so a component added later breaks no
   * call.
   */
  public static final int WIDE = 3;

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
   * The records the two rules above are about: public, in one of Baton's exported packages, with a
   * constructor of {@value #WIDE} parameters or more. Public so that a module that declares wide
   * values can check the rules see them: an empty match passes every rule.
   */
  public static final DescribedPredicate<JavaClass> WIDE_PUBLIC_RECORDS =
      DescribedPredicate.describe(
          "are wide public records",
          (JavaClass type) ->
              isPublicBatonRecord(type)
                  && type.getConstructors().stream()
                      .anyMatch(c -> c.getRawParameterTypes().size() >= WIDE));

  /**
   * The other half of the rule above: a wide value gives its users a way in that is not the
   * positional constructor, or they would have no other choice. A builder, or a named factory
   * narrower than {@value #WIDE} parameters; a factory as wide as the constructor is the same
   * frozen shape under another name.
   */
  @ArchTest
  public static final ArchRule wideValuesOfferABuilderOrANarrowFactory =
      classes()
          .that(WIDE_PUBLIC_RECORDS)
          .should(
              new ArchCondition<>(
                  "declare a public static builder or a factory narrower than WIDE") {
                @Override
                public void check(JavaClass type, ConditionEvents events) {
                  boolean offered =
                      type.getMethods().stream()
                          .filter(m -> m.getModifiers().contains(JavaModifier.STATIC))
                          .filter(m -> m.getModifiers().contains(JavaModifier.PUBLIC))
                          .anyMatch(m -> isBuilderOf(type, m) || isNarrowFactoryOf(type, m));
                  events.add(
                      new SimpleConditionEvent(
                          type,
                          offered,
                          type.getName()
                              + (offered ? " offers" : " offers no")
                              + " public static builder or factory of fewer than "
                              + WIDE
                              + " parameters"));
                }
              })
          // Most plugin modules declare no wide value at all; baton checks that it finds its own.
          .allowEmptyShould(true);

  /** A method that returns a builder nested in the value, one whose build method returns it. */
  private static boolean isBuilderOf(JavaClass type, JavaMethod method) {
    JavaClass returned = method.getRawReturnType();
    return returned.getEnclosingClass().map(type::equals).orElse(false)
        && returned.getMethods().stream()
            .filter(m -> m.getModifiers().contains(JavaModifier.PUBLIC))
            .filter(m -> !m.getModifiers().contains(JavaModifier.STATIC))
            .anyMatch(m -> m.getRawReturnType().equals(type));
  }

  private static boolean isNarrowFactoryOf(JavaClass type, JavaMethod method) {
    return method.getRawReturnType().equals(type) && method.getRawParameterTypes().size() < WIDE;
  }

  /**
   * A record users can name: public, inside types that are public too (a record nested in a
   * package-private interface is public but out of reach), and not in one of Baton's internal
   * packages.
   */
  private static boolean isPublicBatonRecord(JavaClass type) {
    return type.isRecord()
        && isReachable(type)
        && type.getPackageName().startsWith("dev.baton")
        && !type.getPackageName().contains(".internal");
  }

  private static boolean isReachable(JavaClass type) {
    return type.getModifiers().contains(JavaModifier.PUBLIC)
        && type.getEnclosingClass().map(ApiRules::isReachable).orElse(true);
  }
}
