package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.rules.ApiSignatures;
import dev.baton.rules.ModuleTypes;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The public surface is the product: what users can name must not expose Baton's internal packages,
 * which the module does not export to them.
 */
class PublicApiTest {
  /** What users can name: the public types of the baton jar, outside its internal packages. */
  private static final List<Class<?>> API = ModuleTypes.publicTypes(Baton.class);

  @Test
  void noPublicSignatureNamesAnInternalType() {
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : API) {
      check(leaks, type + " extends", type.getGenericSuperclass());
      for (TypeVariable<?> variable : type.getTypeParameters()) {
        check(leaks, type + " <" + variable + ">", variable);
      }
      for (Type implemented : type.getGenericInterfaces()) {
        check(leaks, type + " implements", implemented);
      }
      for (Field field : type.getDeclaredFields()) {
        if (isVisible(field.getModifiers())) {
          check(leaks, field.toString(), field.getGenericType());
        }
      }
      List<Executable> members = new ArrayList<>(List.of(type.getDeclaredMethods()));
      for (Constructor<?> constructor : type.getDeclaredConstructors()) {
        members.add(constructor);
      }
      for (Executable member : members) {
        if (!isVisible(member.getModifiers()) || member.isSynthetic()) {
          continue;
        }
        if (member instanceof Method method) {
          check(leaks, member.toString(), method.getGenericReturnType());
        }
        for (TypeVariable<?> variable : member.getTypeParameters()) {
          check(leaks, member + " <" + variable + ">", variable);
        }
        for (Type parameter : member.getGenericParameterTypes()) {
          check(leaks, member.toString(), parameter);
        }
        for (Type thrown : member.getGenericExceptionTypes()) {
          check(leaks, member.toString(), thrown);
        }
      }
    }
    assertThat(leaks).isEmpty();
  }

  /**
   * Every public type of the baton jar and every public and protected member of each is a line of
   * public-api.txt, so that a type added or removed, or a signature changed, shows in a change as a
   * line of that file. It grows only with types and members users name in their own code; helpers
   * belong in dev.baton.internal.
   */
  @Test
  void thePublicSurfaceIsTheReviewedList() throws IOException {
    ApiSignatures.assertListed(
        Baton.class,
        Path.of("src/test/resources/dev/baton/public-api.txt"),
        List.of(
            "The public API of the baton jar: each public type (a line without '#'), then each of its",
            "public and protected members. A change here is a change to the product: each type must",
            "be one a user names in their own code."));
  }

  private static boolean isVisible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void check(List<String> leaks, String where, Type type) {
    for (Class<?> involved : involved(type, new HashSet<>(), new HashSet<>())) {
      if (involved.getPackageName().startsWith("dev.baton.internal")) {
        leaks.add(where + " names " + involved.getName());
      }
    }
  }

  private static Set<Class<?>> involved(
      Type type, Set<Class<?>> into, Set<TypeVariable<?>> seenVariables) {
    switch (type) {
      case null -> {}
      case Class<?> c -> {
        into.add(c.isArray() ? c.getComponentType() : c);
      }
      case ParameterizedType p -> {
        involved(p.getRawType(), into, seenVariables);
        for (Type argument : p.getActualTypeArguments()) {
          involved(argument, into, seenVariables);
        }
      }
      case GenericArrayType a -> involved(a.getGenericComponentType(), into, seenVariables);
      case WildcardType w -> {
        for (Type bound : w.getUpperBounds()) {
          involved(bound, into, seenVariables);
        }
        for (Type bound : w.getLowerBounds()) {
          involved(bound, into, seenVariables);
        }
      }
      case TypeVariable<?> v -> {
        // A bound can name its own variable (T extends Comparable<T>): visit each variable once.
        if (seenVariables.add(v)) {
          for (Type bound : v.getBounds()) {
            involved(bound, into, seenVariables);
          }
        }
      }
      default -> {}
    }
    return into;
  }
}
