package dev.baton.rules;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A module's public API as text: every public type of the module (see {@link ModuleTypes}) and
 * every public and protected member of each, one line apiece, so that a file of those lines kept
 * beside the module's tests turns any change of a signature into a reviewed line of a diff.
 *
 * <p>Each type's line comes first, then its members sorted, the types sorted by name:
 *
 * <pre>
 * dev.baton.Baton: public final class implements java.lang.AutoCloseable
 * dev.baton.Baton#builder() -&gt; dev.baton.Baton$Builder [static]
 * dev.baton.agent.AgentUsage#&lt;init&gt;(int, int)
 * dev.baton.core.Status#NOT_FOUND: dev.baton.core.Status [static final]
 * </pre>
 *
 * Generic signatures are written as the compiled class files give them; annotations, parameter
 * names and members a type inherits are not part of a line. Compiler-made members are left out, but
 * those the language declares without code (a record's accessors, an enum's {@code values()}) are
 * the type's API as much as any other and are listed.
 */
public final class ApiSignatures {
  /** The system property that makes {@link #assertListed} rewrite the file instead of failing. */
  public static final String UPDATE_PROPERTY = "baton.api.update";

  /** The command that rewrites every module's list, which a stale list's failure names. */
  public static final String UPDATE_COMMAND =
      "./mvnw -B verify -Dtest=PublicApiTest -Dsurefire.failIfNoSpecifiedTests=false"
          + " -D"
          + UPDATE_PROPERTY
          + "=true";

  private ApiSignatures() {}

  /** The lines of the public API of the module that holds {@code anchor}, in order. */
  public static List<String> of(Class<?> anchor) {
    List<String> lines = new ArrayList<>();
    for (Class<?> type : ModuleTypes.publicTypes(anchor)) {
      lines.add(type.getName() + ": " + describe(type));
      lines.addAll(members(type));
    }
    return List.copyOf(lines);
  }

  /**
   * Checks that {@code file} (relative to the module's directory, where its tests run) lists the
   * public API of the module that holds {@code anchor}, after a header of {@code #} lines. With
   * {@code -Dbaton.api.update=true} it writes the list instead, under {@code header}, for the
   * change to be reviewed in the diff.
   *
   * @param header what the file is, one comment line per element, written without the {@code #}
   */
  public static void assertListed(Class<?> anchor, Path file, List<String> header)
      throws IOException {
    assertListed(anchor, file, header, Boolean.getBoolean(UPDATE_PROPERTY));
  }

  static void assertListed(Class<?> anchor, Path file, List<String> header, boolean update)
      throws IOException {
    List<String> actual = of(anchor);
    if (update) {
      List<String> text = new ArrayList<>();
      for (String line : header) {
        text.add(("# " + line).strip());
      }
      text.add("# A change of signature fails PublicApiTest until this file is rewritten with");
      text.add("#   " + UPDATE_COMMAND);
      text.add("# and the diff reviewed in the same change.");
      text.addAll(actual);
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.write(file, text, StandardCharsets.UTF_8);
      return;
    }
    List<String> listed =
        Files.exists(file)
            ? Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .toList()
            : List.of();
    if (!listed.equals(actual)) {
      throw new AssertionError(
          "The public API of the module that holds "
              + anchor.getName()
              + " differs from "
              + file
              + ". If the change is meant, rewrite the list with\n  "
              + UPDATE_COMMAND
              + "\nand review its diff.\n"
              + difference(listed, actual));
    }
  }

  private static String difference(List<String> listed, List<String> actual) {
    String gone =
        listed.stream()
            .filter(line -> !actual.contains(line))
            .map(line -> "- " + line + "\n")
            .collect(Collectors.joining());
    String added =
        actual.stream()
            .filter(line -> !listed.contains(line))
            .map(line -> "+ " + line + "\n")
            .collect(Collectors.joining());
    // Lines in both but in another order change nothing a user sees; only the order differs.
    return gone.isEmpty() && added.isEmpty()
        ? "The lines are the same in another order."
        : gone + added;
  }

  /** The type's modifiers, kind, type parameters and supertypes, as its declaration reads. */
  private static String describe(Class<?> type) {
    StringBuilder line = new StringBuilder();
    int modifiers = type.getModifiers();
    // A record, enum and interface carry their implied modifiers in the class file: leave out
    // those the declaration cannot omit, so the line reads as the source does.
    if (type.isInterface()) {
      modifiers &= ~(Modifier.ABSTRACT | Modifier.INTERFACE);
      if (type.getDeclaringClass() != null) {
        modifiers &= ~Modifier.STATIC;
      }
    }
    if (type.isRecord() || type.isEnum()) {
      modifiers &= ~(Modifier.FINAL | Modifier.STATIC);
    }
    line.append(Modifier.toString(modifiers));
    if (type.isSealed()) {
      line.append(" sealed");
    }
    line.append(' ').append(kind(type)).append(typeParameters(type.getTypeParameters()));
    if (type.isRecord()) {
      line.append(
          Arrays.stream(type.getRecordComponents())
              .map(
                  component -> component.getGenericType().getTypeName() + " " + component.getName())
              .collect(Collectors.joining(", ", "(", ")")));
    }
    Type superclass = type.getGenericSuperclass();
    if (superclass != null
        && superclass != Object.class
        && superclass != Record.class
        && !type.isEnum()) {
      line.append(" extends ").append(superclass.getTypeName());
    }
    List<Type> interfaces =
        type.isAnnotation() ? List.of() : Arrays.asList(type.getGenericInterfaces());
    if (!interfaces.isEmpty()) {
      line.append(type.isInterface() ? " extends " : " implements ")
          .append(names(interfaces.stream()));
    }
    // No permits clause: it may name classes of the internal packages, which users cannot name;
    // a public subclass added or removed shows as a line of its own.
    return line.toString();
  }

  private static String kind(Class<?> type) {
    if (type.isAnnotation()) {
      return "@interface";
    }
    if (type.isInterface()) {
      return "interface";
    }
    if (type.isEnum()) {
      return "enum";
    }
    return type.isRecord() ? "record" : "class";
  }

  private static List<String> members(Class<?> type) {
    List<String> lines = new ArrayList<>();
    String owner = type.getName() + "#";
    for (Field field : type.getDeclaredFields()) {
      if (isVisible(field.getModifiers()) && !field.isSynthetic()) {
        lines.add(
            owner
                + field.getName()
                + ": "
                + field.getGenericType().getTypeName()
                + modifiers(field.getModifiers(), false));
      }
    }
    for (Constructor<?> constructor : type.getDeclaredConstructors()) {
      if (isVisible(constructor.getModifiers()) && !constructor.isSynthetic()) {
        lines.add(
            owner
                + signature(constructor, "<init>")
                + throwsClause(constructor)
                + modifiers(constructor.getModifiers(), false));
      }
    }
    for (Method method : type.getDeclaredMethods()) {
      if (isVisible(method.getModifiers()) && !method.isSynthetic()) {
        lines.add(
            owner
                + signature(method, method.getName())
                + " -> "
                + method.getGenericReturnType().getTypeName()
                + throwsClause(method)
                + modifiers(method.getModifiers(), method.isDefault()));
      }
    }
    return lines.stream().sorted().toList();
  }

  private static String signature(Executable member, String name) {
    List<String> parameters = new ArrayList<>();
    Type[] types = member.getGenericParameterTypes();
    for (int i = 0; i < types.length; i++) {
      String parameter = types[i].getTypeName();
      if (member.isVarArgs() && i == types.length - 1) {
        parameter = parameter.substring(0, parameter.length() - "[]".length()) + "...";
      }
      parameters.add(parameter);
    }
    String variables = typeParameters(member.getTypeParameters());
    return (variables.isEmpty() ? "" : variables + " ")
        + name
        + parameters.stream().collect(Collectors.joining(", ", "(", ")"));
  }

  private static String throwsClause(Executable member) {
    Type[] thrown = member.getGenericExceptionTypes();
    return thrown.length == 0 ? "" : " throws " + names(Arrays.stream(thrown));
  }

  /** Whether users see a member: public, or protected for their subclasses. */
  private static boolean isVisible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  /** The modifiers a change of which matters to a caller or an implementer, in brackets. */
  private static String modifiers(int modifiers, boolean isDefault) {
    List<String> words = new ArrayList<>();
    if (Modifier.isProtected(modifiers)) {
      words.add("protected");
    }
    if (isDefault) {
      words.add("default");
    }
    if (Modifier.isAbstract(modifiers)) {
      words.add("abstract");
    }
    if (Modifier.isStatic(modifiers)) {
      words.add("static");
    }
    if (Modifier.isFinal(modifiers)) {
      words.add("final");
    }
    return words.isEmpty() ? "" : " [" + String.join(" ", words) + "]";
  }

  private static String typeParameters(TypeVariable<?>[] variables) {
    if (variables.length == 0) {
      return "";
    }
    return Arrays.stream(variables)
        .map(ApiSignatures::typeParameter)
        .collect(Collectors.joining(", ", "<", ">"));
  }

  private static String typeParameter(TypeVariable<?> variable) {
    List<Type> bounds =
        Arrays.stream(variable.getBounds()).filter(bound -> bound != Object.class).toList();
    return bounds.isEmpty()
        ? variable.getName()
        : variable.getName()
            + " extends "
            + bounds.stream().map(Type::getTypeName).collect(Collectors.joining(" & "));
  }

  private static String names(Stream<Type> types) {
    return types.map(Type::getTypeName).collect(Collectors.joining(", "));
  }
}
