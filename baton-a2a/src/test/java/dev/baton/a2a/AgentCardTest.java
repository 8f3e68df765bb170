package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.Json;
import dev.baton.server.ContextProviders;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What a served agent's card tells a client: its skills, and how to authenticate. */
class AgentCardTest {

  @Test
  void theAgentIsASkillAndSoIsEachToolNamedToIt() throws Exception {
    try (ServedA2a served = new ServedA2a().serve(b -> b.skills("researcher", "approve"))) {
      JsonNode skills = served.card().path("skills");

      assertThat(skills).hasSize(2);
      assertThat(skills.get(0).path("id").asString()).isEqualTo("researcher");
      assertThat(skills.get(0).path("description").asString())
          .isEqualTo("Finds facts and writes research notes.");
      assertThat(skills.get(1).path("id").asString()).isEqualTo("approve");
      assertThat(skills.get(1).path("description").asString())
          .isEqualTo("asks the user to approve a step");
    }
  }

  @Test
  void aToolThatIsNotRegisteredOrAnAgentNotServedIsRefusedAtBuild() throws Exception {
    try (ServedA2a served = new ServedA2a()) {
      assertThatThrownBy(
              () ->
                  A2aHandler.builder(served.baton)
                      .agents("researcher")
                      .skills("researcher", "x")
                      .build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("no tool named x");
      assertThatThrownBy(() -> A2aHandler.builder(served.baton).skills("writer", "approve").build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("writer");
    }
  }

  @Test
  void withoutContextProvidersTheCardDeclaresNoSecurity() throws Exception {
    try (ServedA2a served = new ServedA2a().serve()) {
      JsonNode card = served.card();

      assertThat(card.has("securitySchemes")).isFalse();
      assertThat(card.has("security")).isFalse();
    }
  }

  @Test
  void aContextProviderIsABearerSchemeThatCallsMustSatisfy() throws Exception {
    try (ServedA2a served =
        new ServedA2a()
            .serve(b -> b.contextProvider(ContextProviders.bearerToken(token -> Map.of())))) {
      JsonNode card = served.card();

      assertThat(card.at("/securitySchemes/bearer"))
          .isEqualTo(Json.object().put("type", "http").put("scheme", "bearer"));
      assertThat(card.path("security")).isEqualTo(Json.parse("[{\"bearer\": []}]"));
      assertThat(served.call("tasks/get", Json.object().put("id", "t")).at("/error/code").asInt())
          .as("an unauthenticated call")
          .isEqualTo(-32600);
    }
  }

  @Test
  void declaredSchemesReplaceTheBearerDefault() throws Exception {
    try (ServedA2a served =
        new ServedA2a()
            .serve(
                b ->
                    b.contextProvider(ContextProviders.apiKey("k"))
                        .securityScheme(
                            "key",
                            Json.object()
                                .put("type", "apiKey")
                                .put("in", "header")
                                .put("name", "Authorization")))) {
      JsonNode card = served.card();

      assertThat(card.path("securitySchemes").propertyNames()).containsExactly("key");
      assertThat(card.at("/securitySchemes/key/in").asString()).isEqualTo("header");
      assertThat(card.path("security")).isEqualTo(Json.parse("[{\"key\": []}]"));
    }
  }

  @Test
  void aSchemeWithoutATypeIsRefused() throws Exception {
    try (ServedA2a served = new ServedA2a()) {
      assertThatThrownBy(
              () -> A2aHandler.builder(served.baton).securityScheme("bad", Json.object()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("type");
    }
  }
}
