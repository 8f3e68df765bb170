package dev.baton.internal.middleware.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ai.GenerateOptions;
import dev.baton.ai.Middleware;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.ai.ModelRef;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.compression.ContextCompression;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** How ContextCompression is configured: by builder or by name with JSON, and what is rejected. */
class ContextCompressionConfigTest extends ContextCompressionTestSupport {
  private Middleware byName(String config) {
    return MiddlewareDescriptor.lookup(baton.registry(), ContextCompression.NAME)
        .create(Json.parse(config));
  }

  /** Every field under Genkit's name: {@link GenkitJsonConfigTest}. */
  @Test
  void jsonConfigTakesAModelByItsNameAndEmptyStrategiesWithTheirDefaults() {
    assertThat(
            byName(
                "{\"summarize\": {\"model\": \"summarizer\"}, \"deduplicateToolResponses\": {}}"))
        .isEqualTo(
            ContextCompression.builder()
                .summarize(ContextCompression.Summarizer.of(ModelRef.of("summarizer")))
                .dedupeToolResponses(ContextCompression.Dedupe.byNameAndInput())
                .build());
    assertThat(Json.toTree(ContextCompression.DedupeMatch.NAME_AND_INPUT).asString())
        .isEqualTo("name-and-input");
  }

  @Test
  void aGenerateRequestUsesItByName() {
    model.respondText("ok");
    JsonNode input =
        Json.parse(
            """
            {"model": "pm",
             "messages": [{"role": "user", "content": [{"text": "u1"}]},
                          {"role": "model", "content": [{"text": "m1"}]},
                          {"role": "user", "content": [{"text": "u2"}]}],
             "use": [{"name": "genkit-middleware-exp/contextCompression",
                      "config": {"maxMessages": 2, "preserveRecent": 1,
                                 "truncationNotice": "[cut]"}}]}
            """);

    baton
        .registry()
        .lookup("/util/generate")
        .orElseThrow()
        .runJson(baton.context(), input, StreamCallback.discard());

    assertThat(sent(0)).containsExactly("user:[cut]", "user:u2");
  }

  @Test
  void everyFieldIsOptionalInTheSchema() {
    MiddlewareDescriptor descriptor =
        MiddlewareDescriptor.lookup(baton.registry(), ContextCompression.NAME);
    assertThat(descriptor.configSchema().has("required")).isFalse();
    assertThat(descriptor.create(null)).isEqualTo(ContextCompression.builder().build());
  }

  @Test
  void badConfigurationsAreRejectedWhenTheHooksAreBuilt() {
    Map<ContextCompression.Builder, String> rejected =
        Map.of(
            compression().maxInputTokens(-1),
            "maxInputTokens must not be negative, got -1",
            compression().maxMessages(-2),
            "maxMessages must not be negative, got -2",
            compression().preserveRecent(-1),
            "preserveRecent must not be negative, got -1",
            compression()
                .dedupeToolResponses(ContextCompression.Dedupe.byNameAndInput().withKeepRecent(-1)),
            "deduplicateToolResponses.keepRecent must not be negative, got -1",
            compression().truncateToolResponses(ContextCompression.ToolTruncation.maxChars(0)),
            "toolResponses.maxChars is required and must be positive, got 0",
            compression().summarize(new ContextCompression.Summarizer(null, 0, null)),
            "summarize.model is required",
            compression()
                .summarize(ContextCompression.Summarizer.of("summarizer").withPreserveRecent(-3)),
            "summarize.preserveRecent must not be negative, got -3",
            compression().skipSummarizationThreshold(1.5),
            "skipSummarizationThreshold must be between 0 and 1, got 1.5",
            compression().skipSummarizationThreshold(Double.NaN),
            "skipSummarizationThreshold must be between 0 and 1, got NaN");
    rejected.forEach(
        (config, message) ->
            assertThatThrownBy(() -> config.build().newHooks(baton.context()))
                .isInstanceOfSatisfying(
                    BatonException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
                .hasMessage("contextCompression: " + message));
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .prompt("x")
                        .use(compression().maxMessages(-1).build())
                        .build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessage(
            "failed to build middleware \"genkit-middleware-exp/contextCompression\":"
                + " contextCompression: maxMessages must not be negative, got -1");
    assertThatThrownBy(() -> byName("{\"deduplicateToolResponses\": {\"matchBy\": \"name\"}}"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("matchBy must be \"name-and-input\" or \"name-only\"");
    assertThat(model.calls()).isZero();
  }
}
