package dev.baton.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A module's tests see the other modules' published jars, not their test classes. Baton's tests
 * compile this kit's sources with their own, so if baton's test output reached another module's
 * class path, a second copy of every kit class would shadow or be shadowed by this module's, and
 * the tests would run against whichever came first (as they did while baton shipped the public-API
 * rules in a test-jar, which Maven resolves to baton/target/test-classes before packaging).
 */
class TestClassPathTest {
  private final ClassLoader loader = TestClassPathTest.class.getClassLoader();

  @Test
  void batonsTestOutputIsNotOnTheClassPath() {
    assertThat(loader.getResource("dev/baton/public-api.txt"))
        .as("baton's test resources, on baton-testing's test class path")
        .isNull();
  }

  @Test
  void eachKitClassComesFromThisModuleOnly() throws IOException {
    List<URL> copies =
        Collections.list(loader.getResources("dev/baton/testing/ProgrammableModel.class"));
    assertThat(copies).hasSize(1);
    assertThat(copies.getFirst().getPath()).doesNotContain("/baton/target/test-classes/");
  }
}
