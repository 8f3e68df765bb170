package dev.baton.testing;

import dev.baton.core.Json;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * One of Genkit's cross-language conformance suites, read unchanged from the folder the system
 * property {@code baton.conformance.dir} names (by default {@code ../shared/conformance}).
 *
 * <p>When the folder or file is missing the suite is skipped, and a line on standard error says so
 * and where it was looked for, unless {@code baton.conformance.required=true} (CI sets it), which
 * makes the absence a failure.
 *
 * <p>Immutable once loaded.
 */
public final class ConformanceSuite {
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private final Path file;
  private final JsonNode root;

  private ConformanceSuite(Path file, JsonNode root) {
    this.file = file;
    this.root = root;
  }

  /** Loads a suite, skipping (or failing, under CI) when it is absent. */
  public static ConformanceSuite load(String fileName) {
    return load(
        fileName,
        Path.of(System.getProperty("baton.conformance.dir", "../shared/conformance")),
        Boolean.getBoolean("baton.conformance.required"),
        System.err);
  }

  /**
   * Loads a suite from {@code dir}. A missing one fails when {@code required}; otherwise it is
   * skipped, and {@code report} gets a line saying so and why.
   */
  static ConformanceSuite load(String fileName, Path dir, boolean required, PrintStream report) {
    Path file = dir.resolve(fileName).toAbsolutePath().normalize();
    if (!Files.isRegularFile(file)) {
      String message =
          "Genkit conformance suite "
              + fileName
              + " not found at "
              + file
              + "; set -Dbaton.conformance.dir to the folder holding Genkit's tests/specs";
      if (required) {
        throw new AssertionError(message);
      }
      // A test factory that aborts counts as no test at all: Maven prints "Tests run: 0" and
      // drops the reason, so the skip would go unnoticed without this line.
      report.println("Skipped: " + message);
      Assumptions.abort(message);
    }
    return read(file);
  }

  /** Reads a suite that is known to exist. */
  static ConformanceSuite read(Path file) {
    try {
      return new ConformanceSuite(file, YAML.readTree(file.toFile()));
    } catch (RuntimeException e) {
      throw new AssertionError("cannot read conformance suite " + file + ": " + e.getMessage(), e);
    }
  }

  public Path file() {
    return file;
  }

  /** The suite's test cases, in file order; copies, so a test that changes one changes no other. */
  public List<JsonNode> tests() {
    List<JsonNode> tests = new ArrayList<>();
    root.path("tests").forEach(test -> tests.add(Json.copy(test)));
    if (tests.isEmpty()) {
      throw new AssertionError("conformance suite " + file + " has no tests");
    }
    return tests;
  }

  /** The whole document; a copy. */
  public JsonNode root() {
    return Json.copy(root);
  }
}
