package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ProgrammableModel;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * OpenTelemetry's GenAI conventions, read back from in-memory exporters: the {@code gen_ai.*}
 * attributes of model calls and agent invocations, the token and duration metrics per model and per
 * agent, delegation spans nesting under the orchestrator's turn, and a detached run's span linked
 * to its launch.
 */
class GenAiTelemetryTest {
  private static final AttributeKey<String> OPERATION =
      AttributeKey.stringKey("gen_ai.operation.name");
  private static final AttributeKey<String> MODEL = AttributeKey.stringKey("gen_ai.request.model");
  private static final AttributeKey<String> PROVIDER =
      AttributeKey.stringKey("gen_ai.provider.name");
  private static final AttributeKey<String> AGENT = AttributeKey.stringKey("gen_ai.agent.name");
  private static final AttributeKey<String> TOKEN_TYPE =
      AttributeKey.stringKey("gen_ai.token.type");
  private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  private static final AttributeKey<Long> INPUT_TOKENS =
      AttributeKey.longKey("gen_ai.usage.input_tokens");
  private static final AttributeKey<Long> OUTPUT_TOKENS =
      AttributeKey.longKey("gen_ai.usage.output_tokens");

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  private final Baton baton =
      Baton.builder()
          .experimental()
          .openTelemetry(
              OpenTelemetrySdk.builder()
                  .setTracerProvider(
                      SdkTracerProvider.builder()
                          .addSpanProcessor(SimpleSpanProcessor.create(spans))
                          .build())
                  .setMeterProvider(
                      SdkMeterProvider.builder().registerMetricReader(metrics).build())
                  .build())
          .build();

  private static ModelResponse answer(String text, int in, int out) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP)
        .withUsage(GenerationUsage.builder().inputTokens(in).outputTokens(out).build());
  }

  @Test
  void aModelCallIsAChatSpanWithItsUsageAndRecordsTokensAndDuration() {
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "acme/writer");
    model.respond(answer("hello", 12, 5));

    baton.generate(
        GenerateOptions.builder()
            .model("acme/writer")
            .prompt("hi")
            .config(Json.object().put("temperature", 0.3).put("maxOutputTokens", 100))
            .build());

    SpanData call = span("acme/writer");
    assertThat(call.getAttributes().get(OPERATION)).isEqualTo("chat");
    assertThat(call.getAttributes().get(MODEL)).isEqualTo("acme/writer");
    assertThat(call.getAttributes().get(PROVIDER)).isEqualTo("acme");
    assertThat(call.getAttributes().get(INPUT_TOKENS)).isEqualTo(12);
    assertThat(call.getAttributes().get(OUTPUT_TOKENS)).isEqualTo(5);
    assertThat(call.getAttributes().get(AttributeKey.doubleKey("gen_ai.request.temperature")))
        .isEqualTo(0.3);
    assertThat(call.getAttributes().get(AttributeKey.longKey("gen_ai.request.max_tokens")))
        .isEqualTo(100);
    assertThat(
            call.getAttributes().get(AttributeKey.stringArrayKey("gen_ai.response.finish_reasons")))
        .containsExactly("stop");
    assertThat(call.getAttributes().get(AGENT)).isNull();

    Collection<MetricData> read = metrics.collectAllMetrics();
    Attributes chat = Attributes.of(OPERATION, "chat", MODEL, "acme/writer", PROVIDER, "acme");
    assertThat(histogramSum(read, "gen_ai.client.token.usage", withTokenType(chat, "input")))
        .isEqualTo(12);
    assertThat(histogramSum(read, "gen_ai.client.token.usage", withTokenType(chat, "output")))
        .isEqualTo(5);
    assertThat(counter(read, "baton.gen_ai.client.tokens", withTokenType(chat, "input")))
        .isEqualTo(12);
    assertThat(histogram(read, "gen_ai.client.operation.duration", chat).getCount()).isEqualTo(1);
    assertThat(metric(read, "gen_ai.client.operation.duration").getUnit()).isEqualTo("s");
    assertThat(counter(read, "baton.gen_ai.client.operations", chat)).isEqualTo(1);
  }

  @Test
  void aFailedModelCallRecordsItsErrorType() {
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "flaky");
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "overloaded"));

    assertThatThrownBy(
            () -> baton.generate(GenerateOptions.builder().model("flaky").prompt("hi").build()))
        .isInstanceOf(BatonException.class);

    Attributes failed = Attributes.of(OPERATION, "chat", MODEL, "flaky", ERROR_TYPE, "UNAVAILABLE");
    Collection<MetricData> read = metrics.collectAllMetrics();
    assertThat(histogram(read, "gen_ai.client.operation.duration", failed).getCount()).isEqualTo(1);
    assertThat(counter(read, "baton.gen_ai.client.operations", failed)).isEqualTo(1);
  }

  @Test
  void anAgentInvocationCarriesTheAgentAttributesAndItsModelCallsAreAttributedToIt() {
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
    Agent agent =
        baton.defineAgent(
            "helper",
            InlinePrompt.builder().model("pm").build(),
            AgentOptions.builder()
                .description("Helps.")
                .sessionStore(InMemorySessionStore.create())
                .build());
    model.respond(answer("one", 10, 2));
    model.respond(answer("two", 20, 3));
    AgentConnection connection = agent.connect(AgentInit.NEW);
    connection.sendText("first");
    connection.sendText("second");
    AgentOutput output = connection.output();

    SpanData invocation = span("helper");
    assertThat(invocation.getAttributes().get(OPERATION)).isEqualTo("invoke_agent");
    assertThat(invocation.getAttributes().get(AGENT)).isEqualTo("helper");
    assertThat(invocation.getAttributes().get(AttributeKey.stringKey("gen_ai.agent.description")))
        .isEqualTo("Helps.");
    assertThat(invocation.getAttributes().get(AttributeKey.stringKey("gen_ai.conversation.id")))
        .isEqualTo(output.sessionId());
    assertThat(invocation.getAttributes().get(INPUT_TOKENS)).isEqualTo(30);
    assertThat(invocation.getAttributes().get(OUTPUT_TOKENS)).isEqualTo(5);
    assertThat(span("pm").getAttributes().get(AGENT)).isEqualTo("helper");

    Collection<MetricData> read = metrics.collectAllMetrics();
    Attributes turns = Attributes.of(OPERATION, "invoke_agent", AGENT, "helper");
    assertThat(histogram(read, "gen_ai.client.operation.duration", turns).getCount()).isEqualTo(2);
    assertThat(counter(read, "baton.gen_ai.client.operations", turns)).isEqualTo(2);
    Attributes helperChat = Attributes.of(OPERATION, "chat", MODEL, "pm", AGENT, "helper");
    assertThat(counter(read, "baton.gen_ai.client.tokens", withTokenType(helperChat, "input")))
        .isEqualTo(30);
    assertThat(
            histogram(read, "gen_ai.client.token.usage", withTokenType(helperChat, "output"))
                .getCount())
        .isEqualTo(2);
  }

  @Test
  void aDelegationNestsUnderTheOrchestratorsTurn() {
    ProgrammableModel orchestratorModel = ProgrammableModel.define(baton.registry(), "orch");
    ProgrammableModel researcherModel = ProgrammableModel.define(baton.registry(), "res");
    Agent researcher = baton.defineAgent("researcher", InlinePrompt.builder().model("res").build());
    Agent orchestrator =
        baton.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("orch")
                .use(Agents.builder().agents(researcher.ref()).build())
                .build());
    orchestratorModel.respond(
        ModelResponse.of(
            new Message(
                Role.MODEL,
                List.of(
                    Part.toolRequest(
                        "delegate_to_researcher", "d1", Json.object().put("task", "Look up")))),
            FinishReason.STOP));
    researcherModel.respond(answer("found it", 4, 2));
    orchestratorModel.respond(answer("done", 8, 1));

    orchestrator.runText("go", AgentInit.NEW);

    SpanData orchestratorTurn = childOf(span("orchestrator"), "runTurn-1");
    SpanData subAgent = span("researcher");
    assertThat(ancestors(subAgent)).contains(orchestratorTurn.getSpanId());
    assertThat(subAgent.getTraceId()).isEqualTo(orchestratorTurn.getTraceId());
    assertThat(span("res").getAttributes().get(AGENT)).isEqualTo("researcher");
    assertThat(
            spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("orch"))
                .map(s -> s.getAttributes().get(AGENT)))
        .containsOnly("orchestrator");
  }

  @Test
  void aDetachedRunIsATraceOfItsOwnLinkedToItsLaunch() {
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
    Agent agent =
        baton.defineAgent(
            "worker",
            InlinePrompt.builder().model("pm").build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    model.respond(answer("background answer", 3, 3));

    AgentOutput detached = agent.run(AgentInput.text("go").withDetach(true), AgentInit.NEW);
    agent.waitForSnapshot(detached.snapshotId());

    // The background span ends when the function does, which may be just after the row settles.
    await()
        .until(
            () ->
                spans.getFinishedSpanItems().stream()
                        .filter(s -> s.getName().equals("worker"))
                        .count()
                    == 2);
    List<SpanData> agentSpans =
        spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals("worker")).toList();
    SpanData launch =
        agentSpans.stream().filter(s -> s.getLinks().isEmpty()).findFirst().orElseThrow();
    SpanData background =
        agentSpans.stream().filter(s -> !s.getLinks().isEmpty()).findFirst().orElseThrow();
    assertThat(background.getTraceId()).isNotEqualTo(launch.getTraceId());
    assertThat(background.getParentSpanContext().isValid()).isFalse();
    assertThat(background.getLinks().get(0).getSpanContext()).isEqualTo(launch.getSpanContext());
    assertThat(background.getAttributes().get(AttributeKey.booleanKey("genkit:isRoot"))).isTrue();
    assertThat(
            background
                .getAttributes()
                .get(AttributeKey.stringKey("genkit:metadata:agent:snapshotId")))
        .isEqualTo(detached.snapshotId());
    assertThat(background.getAttributes().get(OPERATION)).isEqualTo("invoke_agent");
    assertThat(childOf(background, "runTurn-1").getTraceId()).isEqualTo(background.getTraceId());
  }

  private SpanData span(String name) {
    return spans.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no span " + name + " in " + spans.getFinishedSpanItems()));
  }

  private SpanData childOf(SpanData parent, String name) {
    return spans.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name) && s.getParentSpanId().equals(parent.getSpanId()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no span " + name + " under " + parent.getName()));
  }

  private List<String> ancestors(SpanData span) {
    Map<String, SpanData> byId =
        spans.getFinishedSpanItems().stream()
            .collect(java.util.stream.Collectors.toMap(SpanData::getSpanId, s -> s));
    List<String> chain = new java.util.ArrayList<>();
    for (SpanData s = byId.get(span.getParentSpanId());
        s != null;
        s = byId.get(s.getParentSpanId())) {
      chain.add(s.getSpanId());
    }
    return chain;
  }

  private static Attributes withTokenType(Attributes attributes, String type) {
    return attributes.toBuilder().put(TOKEN_TYPE, type).build();
  }

  private static MetricData metric(Collection<MetricData> read, String name) {
    return read.stream()
        .filter(m -> m.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + name + " in " + read));
  }

  private static HistogramPointData histogram(
      Collection<MetricData> read, String name, Attributes attributes) {
    return metric(read, name).getHistogramData().getPoints().stream()
        .filter(p -> p.getAttributes().equals(attributes))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "no " + name + " point with " + attributes + " in " + metric(read, name)));
  }

  private static double histogramSum(
      Collection<MetricData> read, String name, Attributes attributes) {
    return histogram(read, name, attributes).getSum();
  }

  private static long counter(Collection<MetricData> read, String name, Attributes attributes) {
    return metric(read, name).getLongSumData().getPoints().stream()
        .filter(p -> p.getAttributes().equals(attributes))
        .mapToLong(LongPointData::getValue)
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "no " + name + " point with " + attributes + " in " + metric(read, name)));
  }
}
