package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
  private static final List<Class<?>> API =
      new ClassFileImporter()
              .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
              .importPackages("dev.baton")
              .stream()
              .filter(c -> !c.getPackageName().contains(".internal"))
              .map(JavaClass::reflect)
              .filter(PublicApiTest::isVisible)
              .toList();

  @Test
  void noPublicSignatureNamesAnInternalType() {
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : API) {
      check(leaks, type + " extends", type.getGenericSuperclass());
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

  @Test
  void thePublicSurfaceStaysSmall() {
    // What a user of the baton jar can name, nested types included. It grows only with types
    // users name in their own code; helpers belong in dev.baton.internal.
    assertThat(API).hasSizeLessThanOrEqualTo(134);
  }

  private static boolean isVisible(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
      if (!Modifier.isPublic(c.getModifiers())) {
        return false;
      }
    }
    return !type.isAnonymousClass() && !type.isLocalClass() && !type.isSynthetic();
  }

  private static boolean isVisible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void check(List<String> leaks, String where, Type type) {
    for (Class<?> involved : involved(type, new HashSet<>())) {
      if (involved.getPackageName().startsWith("dev.baton.internal")) {
        leaks.add(where + " names " + involved.getName());
      }
    }
  }

  private static Set<Class<?>> involved(Type type, Set<Class<?>> into) {
    switch (type) {
      case null -> {}
      case Class<?> c -> {
        into.add(c.isArray() ? c.getComponentType() : c);
      }
      case ParameterizedType p -> {
        involved(p.getRawType(), into);
        for (Type argument : p.getActualTypeArguments()) {
          involved(argument, into);
        }
      }
      case GenericArrayType a -> involved(a.getGenericComponentType(), into);
      case WildcardType w -> {
        for (Type bound : w.getUpperBounds()) {
          involved(bound, into);
        }
        for (Type bound : w.getLowerBounds()) {
          involved(bound, into);
        }
      }
      case TypeVariable<?> v -> {}
      default -> {}
    }
    return into;
  }
}
