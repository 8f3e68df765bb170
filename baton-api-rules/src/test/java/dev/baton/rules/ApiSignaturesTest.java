package dev.baton.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.rules.fixtures.api.Shapes;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiSignaturesTest {
  private static final List<String> SHAPES =
      List.of(
          "dev.baton.rules.fixtures.api.Shapes: public final class",
          "dev.baton.rules.fixtures.api.Shapes#<T extends java.lang.Comparable<T>> sorted(java.util.List<T>) -> java.util.List<T> [static]",
          "dev.baton.rules.fixtures.api.Shapes#LIMIT: int [static final]",
          "dev.baton.rules.fixtures.api.Shapes#count(java.util.List<? extends java.lang.Number>) -> int [static]",
          "dev.baton.rules.fixtures.api.Shapes#join(java.lang.String, java.lang.String...) -> java.lang.String throws java.io.IOException",
          "dev.baton.rules.fixtures.api.Shapes#name: java.lang.String [protected]",
          "dev.baton.rules.fixtures.api.Shapes$Base: public abstract static class",
          "dev.baton.rules.fixtures.api.Shapes$Base#<init>() [protected]",
          "dev.baton.rules.fixtures.api.Shapes$Base#hook() -> void [protected abstract]",
          "dev.baton.rules.fixtures.api.Shapes$Mapper: public interface<A, B> extends java.util.function.Function<A, B>",
          "dev.baton.rules.fixtures.api.Shapes$Mapper#<X> identity() -> dev.baton.rules.fixtures.api.Shapes$Mapper<X, X> [static]",
          "dev.baton.rules.fixtures.api.Shapes$Mapper#self() -> dev.baton.rules.fixtures.api.Shapes$Mapper<A, B> [default]",
          "dev.baton.rules.fixtures.api.Shapes$Point: public record(int x, java.util.List<java.lang.String> labels)",
          "dev.baton.rules.fixtures.api.Shapes$Point#<init>(int, java.util.List<java.lang.String>)",
          "dev.baton.rules.fixtures.api.Shapes$Point#equals(java.lang.Object) -> boolean [final]",
          "dev.baton.rules.fixtures.api.Shapes$Point#hashCode() -> int [final]",
          "dev.baton.rules.fixtures.api.Shapes$Point#labels() -> java.util.List<java.lang.String>",
          "dev.baton.rules.fixtures.api.Shapes$Point#toString() -> java.lang.String [final]",
          "dev.baton.rules.fixtures.api.Shapes$Point#x() -> int",
          "dev.baton.rules.fixtures.api.Shapes$Size: public enum",
          "dev.baton.rules.fixtures.api.Shapes$Size#LARGE: dev.baton.rules.fixtures.api.Shapes$Size [static final]",
          "dev.baton.rules.fixtures.api.Shapes$Size#SMALL: dev.baton.rules.fixtures.api.Shapes$Size [static final]",
          "dev.baton.rules.fixtures.api.Shapes$Size#valueOf(java.lang.String) -> dev.baton.rules.fixtures.api.Shapes$Size [static]",
          "dev.baton.rules.fixtures.api.Shapes$Size#values() -> dev.baton.rules.fixtures.api.Shapes$Size[] [static]");

  @TempDir Path root;
  private URLClassLoader module;
  private Class<?> anchor;
  private Path file;

  @BeforeEach
  void copyShapes() throws Exception {
    ClassRoots.copy(
        root,
        Shapes.class,
        Shapes.Mapper.class,
        Shapes.Point.class,
        Shapes.Size.class,
        Shapes.Base.class);
    module = ClassRoots.isolated(root);
    anchor = module.loadClass(Shapes.class.getName());
    file = root.resolve("public-api.txt");
  }

  @AfterEach
  void closeModule() throws Exception {
    module.close();
  }

  /**
   * Each public type, then each of its public and protected members, with generics, varargs, throws
   * and the modifiers a caller or an implementer depends on; package-private and private members
   * are not API, and neither are the members the compiler makes up.
   */
  @Test
  void eachPublicTypeIsALineFollowedByItsMembersLines() {
    assertThat(ApiSignatures.of(anchor)).containsExactlyElementsOf(SHAPES);
  }

  @Test
  void theUpdateModeWritesTheListUnderItsHeaderWhichThenPasses() throws Exception {
    ApiSignatures.assertListed(anchor, file, List.of("The shapes.", "", "Second line."), true);

    List<String> written = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertThat(written)
        .startsWith("# The shapes.", "#", "# Second line.")
        .endsWith(SHAPES.getLast());
    assertThat(written).anyMatch(line -> line.contains(ApiSignatures.UPDATE_COMMAND));
    ApiSignatures.assertListed(anchor, file, List.of("Another header."), false);
  }

  /** A changed signature fails with the lines gone and added, and with how to rewrite the list. */
  @Test
  void aChangedSignatureFailsNamingTheLinesAndTheCommand() throws Exception {
    List<String> stale = new ArrayList<>(SHAPES);
    stale.set(4, "dev.baton.rules.fixtures.api.Shapes#join(java.lang.String) -> java.lang.String");
    Files.write(file, stale, StandardCharsets.UTF_8);

    assertThatThrownBy(() -> ApiSignatures.assertListed(anchor, file, List.of(), false))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "- dev.baton.rules.fixtures.api.Shapes#join(java.lang.String) -> java.lang.String\n")
        .hasMessageContaining("+ " + SHAPES.get(4) + "\n")
        .hasMessageContaining(ApiSignatures.UPDATE_COMMAND);
  }

  @Test
  void aMissingListFailsListingEveryLine() {
    assertThatThrownBy(() -> ApiSignatures.assertListed(anchor, file, List.of(), false))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("+ " + SHAPES.getFirst());
  }
}
