package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration metadata that IDEs complete {@code baton.*} properties from: every property is
 * there with a description in plain text (the processor copies the Javadoc {@code @param} texts as
 * they are, so a Javadoc tag would show raw).
 */
class ConfigurationMetadataTest {
  private static List<JsonNode> batonProperties() throws IOException {
    try (InputStream in =
        Objects.requireNonNull(
            BatonProperties.class.getResourceAsStream(
                "/META-INF/spring-configuration-metadata.json"))) {
      JsonNode metadata = JsonMapper.shared().readTree(in);
      return metadata
          .get("properties")
          .valueStream()
          .filter(property -> property.get("name").asString().startsWith("baton."))
          .toList();
    }
  }

  @Test
  void everyPropertyHasAPlainTextDescription() throws IOException {
    List<JsonNode> properties = batonProperties();
    assertThat(properties)
        .extracting(property -> property.get("name").asString())
        .contains(
            "baton.experimental",
            "baton.shutdown-grace",
            "baton.store.type",
            "baton.store.file.directory",
            "baton.store.postgres.create-schema",
            "baton.googleai.api-key",
            "baton.openai.base-url",
            "baton.vertexai.project",
            "baton.server.base-path",
            "baton.console.enabled",
            "baton.console.path");
    assertThat(properties)
        .allSatisfy(
            property -> {
              JsonNode description = property.get("description");
              assertThat(description).as(property.get("name").asString()).isNotNull();
              assertThat(description.asString())
                  .as(property.get("name").asString())
                  .isNotBlank()
                  .doesNotContain("{@", "<")
                  .matches("[A-Z].*\\.");
            });
  }
}
