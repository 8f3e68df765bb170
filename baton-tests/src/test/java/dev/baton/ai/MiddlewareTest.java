package dev.baton.ai;

import static dev.baton.ai.GenerateTest.call;
import static dev.baton.ai.GenerateTest.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.ai.Metadata;
import dev.baton.internal.middleware.BundledMiddleware;
import dev.baton.middleware.Fallback;
import dev.baton.middleware.Retry;
import dev.baton.middleware.ToolApproval;
import dev.baton.middleware.ToolCallFeedback;
import dev.baton.middleware.budget.Budget;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class MiddlewareTest {
  private final Baton baton = Baton.builder().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  private final Tool<JsonNode, JsonNode> echo =
      baton.defineJsonTool("echo", "echoes", null, null, (ctx, in) -> Json.nodes().stringNode("e"));

  private static Middleware recording(String name, List<String> log) {
    return Middleware.of(
        name,
        ctx ->
            Hooks.builder()
                .wrapGenerate(
                    (c, p, next) -> {
                      log.add(name + ":generate>");
                      ModelResponse r = next.apply(c, p);
                      log.add(name + ":generate<");
                      return r;
                    })
                .wrapModel(
                    (c, p, next) -> {
                      log.add(name + ":model>");
                      ModelResponse r = next.apply(c, p);
                      log.add(name + ":model<");
                      return r;
                    })
                .wrapTool(
                    (c, p, next) -> {
                      log.add(name + ":tool>");
                      ToolResult r = next.apply(c, p);
                      log.add(name + ":tool<");
                      return r;
                    })
                .build());
  }

  @Test
  void theFirstListedMiddlewareIsTheOutermostForEveryHook() {
    List<String> log = new CopyOnWriteArrayList<>();
    model.respond(toolCalls(call("echo", "e1", Json.object())));
    model.respondText("done");
    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .prompt("go")
            .tools(echo)
            .use(recording("a", log), recording("b", log))
            .build());
    assertThat(log)
        .containsExactly(
            "a:generate>",
            "b:generate>",
            "a:model>",
            "b:model>",
            "b:model<",
            "a:model<",
            "b:generate<",
            "a:generate<",
            "a:tool>",
            "b:tool>",
            "b:tool<",
            "a:tool<",
            "a:generate>",
            "b:generate>",
            "a:model>",
            "b:model>",
            "b:model<",
            "a:model<",
            "b:generate<",
            "a:generate<");
  }

  @Test
  void wrapToolRunsConcurrentlyForTheCallsOfOneTurn() {
    CountDownLatch bothInside = new CountDownLatch(2);
    Middleware meeting =
        Middleware.of(
            "meeting",
            ctx ->
                Hooks.builder()
                    .wrapTool(
                        (c, p, next) -> {
                          bothInside.countDown();
                          try {
                            assertThat(bothInside.await(10, TimeUnit.SECONDS)).isTrue();
                          } catch (InterruptedException e) {
                            throw new AssertionError(e);
                          }
                          return next.apply(c, p);
                        })
                    .build());
    model.respond(toolCalls(call("echo", "a", Json.object()), call("echo", "b", Json.object())));
    model.respondText("done");
    assertThat(
            baton
                .generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .prompt("go")
                        .tools(echo)
                        .use(meeting)
                        .build())
                .text())
        .isEqualTo("done");
  }

  @Test
  void hooksAreBuiltOncePerCallAndKeepStateAcrossIterations() {
    AtomicInteger builds = new AtomicInteger();
    List<Integer> seen = new CopyOnWriteArrayList<>();
    Middleware counting =
        Middleware.of(
            "counting",
            ctx -> {
              builds.incrementAndGet();
              AtomicInteger iterations = new AtomicInteger();
              return Hooks.builder()
                  .wrapGenerate(
                      (c, p, next) -> {
                        seen.add(iterations.incrementAndGet());
                        assertThat(p.iteration()).isEqualTo(iterations.get() - 1);
                        return next.apply(c, p);
                      })
                  .build();
            });
    model.respond(
        toolCalls(call("echo", "e1", Json.object())), toolCalls(call("echo", "e2", Json.object())));
    model.respondText("done");
    baton.generate(
        GenerateOptions.builder().model("pm").prompt("go").tools(echo).use(counting).build());
    model.respondText("again");
    baton.generate(GenerateOptions.builder().model("pm").prompt("go").use(counting).build());

    assertThat(seen).containsExactly(1, 2, 3, 1);
    assertThat(builds).hasValue(2);
  }

  @Test
  void aMiddlewareToolLivesOnlyInItsCall() {
    Tool<JsonNode, JsonNode> secret =
        Tool.createJson(
            "secret", "only here", null, null, (ctx, in) -> Json.nodes().stringNode("42"));
    Middleware providing = Middleware.of("providing", ctx -> Hooks.builder().tool(secret).build());
    model.respond(toolCalls(call("secret", "s1", Json.object())));
    model.respondText("the answer is 42");

    GenerateResponse response =
        baton.generate(GenerateOptions.builder().model("pm").prompt("?").use(providing).build());

    assertThat(response.text()).isEqualTo("the answer is 42");
    assertThat(model.requests().get(0).tools())
        .extracting(ToolDefinition::name)
        .containsExactly("secret");
    assertThat(baton.registry().lookup("/tool/secret")).isEmpty();

    model.respond(toolCalls(call("secret", "s2", Json.object())));
    assertThatThrownBy(
            () -> baton.generate(GenerateOptions.builder().model("pm").prompt("?").build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
  }

  @Test
  void toolNameCollisionsAreRejected() {
    Tool<JsonNode, JsonNode> shadow =
        Tool.createJson("echo", "shadows echo", null, null, (ctx, in) -> Json.object());
    Middleware providing = Middleware.of("providing", ctx -> Hooks.builder().tool(shadow).build());

    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .prompt("x")
                        .tools(echo)
                        .use(providing)
                        .build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessage("tool \"echo\" is contributed by middleware but already declared elsewhere");
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .prompt("x")
                        .use(
                            providing,
                            Middleware.of("again", ctx -> Hooks.builder().tool(shadow).build()))
                        .build()))
        .hasMessage("tool \"echo\" is contributed by middleware but already declared elsewhere");
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .prompt("x")
                        .tools(echo)
                        .toolNames("echo")
                        .build()))
        .hasMessage("duplicate tool \"echo\"");
    assertThat(model.calls()).isZero();
  }

  @Test
  void aRewrittenRequestReachesTheModelButNotTheHistory() {
    Middleware injecting =
        Middleware.of(
            "injecting",
            ctx ->
                Hooks.builder()
                    .wrapGenerate(
                        (c, p, next) ->
                            next.apply(
                                c,
                                p.withRequest(
                                    p.request()
                                        .withMessages(
                                            java.util.stream.Stream.concat(
                                                    java.util.stream.Stream.of(
                                                        Message.system("injected")),
                                                    p.request().messages().stream())
                                                .toList()))))
                    .build());
    model.respondText("ok");
    GenerateResponse response =
        baton.generate(GenerateOptions.builder().model("pm").prompt("hi").use(injecting).build());
    assertThat(model.lastRequest().messages())
        .extracting(Message::text)
        .containsExactly("injected", "hi");
    assertThat(response.history()).extracting(Message::text).containsExactly("hi", "ok");
  }

  @Test
  void aHistoryPassedToNextIsWhatTheLoopRecordsAndContinuesFrom() {
    // Marks every message it has not seen in the history, and sends the model only the last one.
    Middleware marking =
        Middleware.of(
            "marking",
            ctx ->
                Hooks.builder()
                    .wrapGenerate(
                        (c, p, next) -> {
                          List<Message> marked =
                              p.history().stream()
                                  .map(m -> m.hasFlag("seen") ? m : m.withFlag("seen"))
                                  .toList();
                          List<Message> last = List.of(marked.get(marked.size() - 1));
                          return next.apply(
                              c, p.withHistory(marked).withRequest(p.request().withMessages(last)));
                        })
                    .build());
    // An outer hook that answers without calling next records nothing.
    Middleware shortCircuit =
        Middleware.of(
            "shortCircuit",
            ctx ->
                Hooks.builder()
                    .wrapGenerate(
                        (c, p, next) ->
                            p.iteration() == 0
                                ? next.apply(c, p)
                                : ModelResponse.of(Message.model("cached"), FinishReason.STOP))
                    .build());
    model.respond(toolCalls(call("echo", "e1", Json.object())));

    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder()
                .model("pm")
                .system("sys")
                .prompt("hi")
                .tools(echo)
                .use(shortCircuit, marking)
                .build());

    assertThat(model.requests()).hasSize(1);
    assertThat(model.lastRequest().messages()).extracting(Message::text).containsExactly("hi");
    assertThat(response.history())
        .extracting(Message::role, m -> m.hasFlag("seen"))
        .containsExactly(
            tuple(Role.SYSTEM, true),
            tuple(Role.USER, true),
            tuple(Role.MODEL, false),
            tuple(Role.TOOL, false),
            tuple(Role.MODEL, false));
    assertThat(response.text()).isEqualTo("cached");
  }

  @Test
  void aMiddlewareThatFailsToBuildFailsTheCall() {
    Middleware broken =
        Middleware.of(
            "broken",
            ctx -> {
              throw new IllegalArgumentException("bad limit");
            });
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder().model("pm").prompt("x").use(broken).build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessage("failed to build middleware \"broken\": bad limit");
    Middleware refused =
        Middleware.of(
            "refused",
            ctx -> {
              throw BatonException.failedPrecondition("needs a session");
            });
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder().model("pm").prompt("x").use(refused).build()))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION));
  }

  @Test
  void middlewareIsUsableByNameWithJsonConfigReadOverItsPrototype() {
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "busy"));
    model.respondText("recovered");
    var input =
        Json.parse(
            "{\"model\":\"pm\",\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"hi\"}]}],"
                + "\"use\":[{\"name\":\"genkit-middleware/retry\",\"config\":{\"initialDelayMs\":0}}]}");
    JsonNode out =
        baton
            .registry()
            .lookup("/util/generate")
            .orElseThrow()
            .runJson(baton.context(), input, dev.baton.core.StreamCallback.discard());
    assertThat(out.path("message").path("content").path(0).path("text").asString())
        .isEqualTo("recovered");
    assertThat(model.calls()).isEqualTo(2);

    Retry fromJson =
        (Retry)
            MiddlewareDescriptor.lookup(baton.registry(), "genkit-middleware/retry")
                .create(Json.parse("{\"maxRetries\":7}"));
    assertThat(fromJson.maxRetries()).isEqualTo(7);
    assertThat(fromJson.initialDelayMs()).isEqualTo(new Retry().initialDelayMs());
  }

  @Test
  void anUnknownNameOrBadConfigFailsWhenTheOptionsAreBuiltNotWhenTheCallRuns() {
    assertThatThrownBy(
            () -> MiddlewareDescriptor.lookup(baton.registry(), "genkit-middleware/nope"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND))
        .hasMessageContaining("is the plugin that provides it installed?");
    MiddlewareDescriptor retry =
        MiddlewareDescriptor.lookup(baton.registry(), "genkit-middleware/retry");
    assertThatThrownBy(() -> GenerateOptions.builder().use(retry, Map.of("maxRetrys", 2)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("maxRetrys");
    assertThatThrownBy(() -> InlinePrompt.builder().use(retry, Map.of("maxRetries", "lots")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    assertThat(model.calls()).isZero();
  }

  @Test
  void theExperimentalMiddlewareAreRegisteredOnlyOnAnExperimentalInstance() {
    assertThat(MiddlewareDescriptor.lookup(baton.registry(), new ToolCallFeedback().name()).name())
        .isEqualTo("genkit-middleware-exp/toolCallFeedback");
    assertThatThrownBy(() -> MiddlewareDescriptor.lookup(baton.registry(), Budget.NAME))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
    Baton experimental = Baton.builder().experimental().build();
    assertThat(MiddlewareDescriptor.lookup(experimental.registry(), Budget.NAME).create(null))
        .isEqualTo(Budget.perRun(GenerationUsage.EMPTY));
  }

  @Test
  void generateOptionsAndPromptsTakeAMiddlewareByItsRegisteredName() {
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "busy"));
    model.respondText("recovered");
    assertThat(generateUsing(new Retry().name(), Map.of("initialDelayMs", 0)).text())
        .isEqualTo("recovered");

    model.step().fail(BatonException.of(Status.UNAVAILABLE, "busy"));
    model.respondText("recovered again");
    ExecutablePrompt prompt =
        baton.definePrompt(
            "retrying",
            InlinePrompt.builder()
                .model("pm")
                .prompt("hi")
                .use(
                    MiddlewareDescriptor.lookup(baton.registry(), "genkit-middleware/retry"),
                    Map.of("initialDelayMs", 0))
                .build());
    assertThat(prompt.generate(baton.context(), null).text()).isEqualTo("recovered again");
    assertThat(model.calls()).isEqualTo(4);
  }

  private GenerateResponse generateUsing(String middleware, @Nullable Object config) {
    return baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .prompt("x")
            .use(MiddlewareDescriptor.lookup(baton.registry(), middleware), config)
            .build());
  }

  @Test
  void everyStableMiddlewareConfigFieldHasADescriptionAndIsOptional() {
    for (MiddlewareDescriptor descriptor : BundledMiddleware.stable()) {
      assertThat(descriptor.description()).isNotBlank();
      descriptor
          .configSchema()
          .path("properties")
          .properties()
          .forEach(
              field ->
                  assertThat(field.getValue().path("description").asString(""))
                      .as(descriptor.name() + "." + field.getKey())
                      .isNotBlank());
      // Every field has a default from the prototype, so a config may leave any of them out.
      assertThat(descriptor.configSchema().path("required").isMissingNode())
          .as(descriptor.name() + " requires nothing")
          .isTrue();
    }
  }

  @Test
  void retryRetriesTransientFailuresOnly() {
    Retry fast = Retry.builder().maxRetries(2).initialDelayMs(1).build();
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "busy"));
    model.step().fail(BatonException.of(Status.RESOURCE_EXHAUSTED, "quota"));
    model.respondText("third time");
    assertThat(
            baton
                .generate(GenerateOptions.builder().model("pm").prompt("x").use(fast).build())
                .text())
        .isEqualTo("third time");
    assertThat(model.calls()).isEqualTo(3);

    model.reset();
    model.step().fail(BatonException.of(Status.DEADLINE_EXCEEDED, "slow"));
    model.respondText("second time");
    assertThat(
            baton
                .generate(GenerateOptions.builder().model("pm").prompt("x").use(fast).build())
                .text())
        .isEqualTo("second time");
    assertThat(model.calls()).isEqualTo(2);

    model.reset();
    model.step().fail(BatonException.invalidArgument("bad request"));
    assertThatThrownBy(
            () ->
                baton.generate(GenerateOptions.builder().model("pm").prompt("x").use(fast).build()))
        .hasMessage("bad request");
    assertThat(model.calls()).isEqualTo(1);

    model.reset();
    for (int i = 0; i < 3; i++) {
      model.step().fail(BatonException.of(Status.UNAVAILABLE, "down " + i));
    }
    assertThatThrownBy(
            () ->
                baton.generate(GenerateOptions.builder().model("pm").prompt("x").use(fast).build()))
        .hasMessage("down 2");
    assertThat(model.calls()).isEqualTo(3);
  }

  @Test
  void fallbackTriesTheNextModel() {
    ProgrammableModel backup = ProgrammableModel.define(baton.registry(), "backup");
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "primary down"));
    backup.respondText("from backup");
    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder().model("pm").prompt("x").use(Fallback.to("backup")).build());
    assertThat(response.text()).isEqualTo("from backup");
    assertThat(backup.lastRequest().messages()).extracting(Message::text).containsExactly("x");

    model.step().fail(BatonException.of(Status.PERMISSION_DENIED, "no"));
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .prompt("x")
                        .use(Fallback.to("backup"))
                        .build()))
        .hasMessage("no");
    assertThat(backup.calls()).isEqualTo(1);
  }

  @Test
  void toolApprovalHoldsUnapprovedCallsUntilRestartedWithApproval() {
    AtomicInteger deletes = new AtomicInteger();
    Tool<JsonNode, JsonNode> delete =
        baton.defineJsonTool(
            "delete",
            "deletes",
            null,
            null,
            (ctx, in) -> Json.nodes().numberNode(deletes.incrementAndGet()));
    model.respond(
        toolCalls(call("echo", "e1", Json.object()), call("delete", "d1", Json.object())));
    GenerateResponse held =
        baton.generate(
            GenerateOptions.builder()
                .model("pm")
                .prompt("x")
                .tools(echo, delete)
                .use(ToolApproval.allowing("echo"))
                .build());

    assertThat(held.finishReason()).isEqualTo(FinishReason.INTERRUPTED);
    assertThat(held.interrupts()).extracting(p -> p.toolRequest().name()).containsExactly("delete");
    assertThat(
            held.interrupts()
                .get(0)
                .metadata()
                .path("interrupt")
                .path("toolApproval")
                .path("tool")
                .asString())
        .isEqualTo("delete");
    assertThat(deletes).hasValue(0);

    model.respondText("deleted");
    ToolRequestPart approve =
        call("delete", "d1", Json.object())
            .withMetadata(Metadata.with(null, "resumed", Json.object().put("toolApproved", true)));
    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .messages(held.history())
            .tools(echo, delete)
            .use(ToolApproval.allowing("echo"))
            .resume(Resume.restart(approve))
            .build());
    assertThat(deletes).hasValue(1);
  }
}
