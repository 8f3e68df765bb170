package dev.baton.testing;

import dev.baton.core.Json;
import dev.baton.rules.JsonCopyContract;
import dev.baton.rules.JsonHolder;
import dev.baton.rules.ModuleTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** This module keeps Baton's rule for JSON in values (see {@link JsonCopyContract}). */
class JsonValuesAreCopiedTest extends JsonCopyContract {
  @TempDir Path dir;

  @Override
  protected List<Class<?>> publicTypes() {
    return ModuleTypes.publicTypes(ProgrammableModel.class);
  }

  @Override
  protected List<JsonHolder<?>> holders() {
    return List.of(
        JsonHolder.of(ConformanceSuite.class, "root", this::suiteOf, ConformanceSuite::root),
        JsonHolder.of(
            ConformanceSuite.class,
            "tests",
            test -> suiteOf(Json.object().set("tests", Json.nodes().arrayNode().add(test))),
            ConformanceSuite::tests));
  }

  @Override
  protected Map<Class<?>, String> notHolders() {
    return Map.of(
        AgentConformance.class,
        "runs a scenario it is given and hands no tree out",
        AgentConformance.Driver.class,
        "a test's way into its agents, implemented by the test");
  }

  /** A suite read from a file holding {@code root}. */
  private ConformanceSuite suiteOf(JsonNode root) {
    try {
      return ConformanceSuite.read(
          Files.writeString(Files.createTempFile(dir, "suite", ".yaml"), Json.write(root)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
