package dev.baton.internal.ai;

import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateParams;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Hooks;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.Model;
import dev.baton.ai.ModelParams;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolDefinition;
import dev.baton.ai.ToolParams;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResult;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.RandomIds;
import dev.baton.internal.core.SharedList;
import dev.baton.internal.core.Tracing;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tool loop: calls the model, runs the tools it asks for, feeds their answers back, and repeats
 * until the model answers without tool requests, a tool interrupts, or {@code maxTurns} tool rounds
 * have run.
 *
 * <p>Per call it builds each middleware's hooks once, registers middleware tools in a child
 * registry, and chains the hooks (first listed outermost). Chunks stream with their message index:
 * the first model message is 0, its tool responses 1, and so on.
 *
 * <p>Middleware that watch the whole run register with its {@link GenerateRun} while their hooks
 * are built: their usage listeners hear every call under the run, their checks run before each
 * model call (inside every {@code wrapGenerate} hook, outside every {@code wrapModel} hook) and
 * before a resume, and a check's stop ends the run with its exception, marked as a stop ({@link
 * GenerateRun#stoppedWith}) with the conversation so far. Every model call's usage is reported when
 * the model returns, inside the {@code wrapModel} hooks, so each attempt a retry makes counts.
 *
 * <p>Stateless and thread-safe: every call keeps its state to itself.
 */
public final class Generate {
  static final String INTERRUPTED_MESSAGE = "One or more tool calls resulted in interrupts.";

  private Generate() {}

  /** Runs a generate call inside a {@code generate} span. */
  public static GenerateResponse generate(ActionContext context, GenerateOptions options) {
    Tracing tracing = DefaultRegistry.tracing(context.registry());
    if (!tracing.isEnabled()) {
      // Not through run(): one frame less under every model call a thread parks in.
      return new Loop(tracing.untraced(context), options).run();
    }
    return tracing.inSpan(
        context, "generate", "util", null, () -> traceInput(options), c -> run(c, options));
  }

  /** Runs a generate call in the caller's span. */
  static GenerateResponse run(ActionContext context, GenerateOptions options) {
    return new Loop(context, options).run();
  }

  private static Map<String, Object> traceInput(GenerateOptions options) {
    Map<String, Object> input = new LinkedHashMap<>();
    if (options.model() != null) {
      input.put("model", options.model().name());
    }
    input.put("messages", initialMessages(options));
    List<String> tools = new ArrayList<>(options.toolNames());
    options.tools().forEach(t -> tools.add(t.name()));
    input.put("tools", tools);
    return input;
  }

  /**
   * The conversation the first model call gets, immutable: the options' messages themselves when
   * there is no system text or prompt to add, as in an agent's turn, whose prompt renders them.
   */
  public static List<Message> initialMessages(GenerateOptions options) {
    if (options.system() == null && options.prompt() == null) {
      return options.messages();
    }
    SharedList.Builder<Message> messages = SharedList.builder(options.messages().size() + 2);
    if (options.system() != null) {
      messages.add(Message.system(options.system()));
    }
    messages.addAll(options.messages());
    if (options.prompt() != null) {
      messages.add(new Message(Role.USER, options.prompt()));
    }
    return messages.build();
  }

  /** The state of one generate call. */
  private static final class Loop {
    private final GenerateOptions options;
    private final ActionContext context;
    private final Model model;
    private final @Nullable JsonNode config;
    private final List<ToolDefinition> toolDefinitions;
    private final ToolCalls toolCalls;
    private final BiFunction<ActionContext, GenerateParams, ModelResponse> generateChain;
    private final StructuredOutput output;
    private final int maxTurns;
    private final GenerateRun run;
    private GenerationUsage totalUsage = GenerationUsage.EMPTY;
    // The history that reached the model call in the current iteration (GenerateParams.history);
    // null when a hook answered without calling it. Iterations run one at a time.
    private @Nullable List<Message> recordedHistory;
    private @Nullable ModelResponse lastResponse;
    // The stop this run's own checks raised, told apart from a nested run's passing through.
    private @Nullable BatonException stopped;

    Loop(ActionContext outer, GenerateOptions options) {
      // A restart belongs to the tool call it restarts, never to a generate nested inside it.
      ActionContext caller = outer.without(ToolCalls.RESTART).without(GenerateRun.KEY);
      this.options = options;
      if (options.model() == null) {
        throw BatonException.invalidArgument("generate needs a model");
      }
      this.model = Model.lookup(caller.registry(), options.model().name());
      this.config = mergeConfig(options.model().config(), options.config());
      Integer turns = options.maxTurns();
      if (turns != null && turns < 0) {
        throw BatonException.invalidArgument("maxTurns must not be negative, got %d", turns);
      }
      this.maxTurns = turns == null ? GenerateOptions.DEFAULT_MAX_TURNS : turns;

      this.run = new GenerateRun(options);
      List<Hooks> hooks = buildHooks(caller.with(GenerateRun.KEY, run), options.use());
      Map<String, Tool<?, ?>> tools = declaredTools(caller.registry(), options);
      this.context = run.start(withMiddlewareTools(caller, hooks, tools));
      this.toolDefinitions = definitions(tools.values());
      int badCallRetries = run.badToolCallRetries();
      // The map is complete now and only read from here on: the tool calls share it, uncopied.
      this.toolCalls =
          new ToolCalls(
              Collections.unmodifiableMap(tools),
              toolChain(hooks),
              badCallRetries == 0 ? null : new BadToolCalls(tools, badCallRetries));
      this.generateChain = generateChain(hooks, modelChain(hooks));
      this.output = StructuredOutput.of(options.output(), model.info(), !toolDefinitions.isEmpty());
    }

    // This run's own stop is told apart from a nested run's by identity: both are marked stops.
    @SuppressWarnings("ReferenceEquality")
    GenerateResponse run() {
      try {
        return loop();
      } catch (BatonException e) {
        if (e == stopped || GenerateRun.stoppedWith(e).isEmpty()) {
          throw e;
        }
        // A nested run's stop (a tool's generate call, say) fails this run: a budget stops only
        // the run it wraps.
        throw new BatonException(
            e.status(), String.valueOf(e.getMessage()), e.details(), e.isPublic(), e);
      } finally {
        run.end();
      }
    }

    private GenerateResponse loop() {
      // An immutable list that grows by appends into its free room: each model call's request and
      // the response share it, so a long history is not copied per call.
      List<Message> messages = output.withInstructions(initialMessages(options));
      if (messages.isEmpty()) {
        throw BatonException.invalidArgument(
            "generate needs at least one message: set system, messages or prompt");
      }
      if (options.resume() != null && !options.resume().isEmpty()) {
        stopIf(run.checkResume(), messages);
        messages = applyResume(messages, options.resume());
      }
      int messageIndex = 0;
      for (int iteration = 0; ; iteration++) {
        context.cancellation().throwIfCancelled();
        ModelRequest request =
            ModelRequest.of(messages)
                .withConfig(config)
                .withTools(toolDefinitions)
                .withToolChoice(options.toolChoice())
                .withOutput(output.config());
        GenerateParams params =
            GenerateParams.of(options, request).withIteration(iteration, messageIndex);
        recordedHistory = null;
        // Checked before the hooks too, so none of them (a summariser, say) calls a model for an
        // iteration the check inside the chain would stop.
        stopIf(run.checkModelCall(), messages);
        ModelResponse response = generateChain.apply(context, params);
        if (recordedHistory != null) {
          messages = recordedHistory;
        }
        Message message = withRefs(requireMessage(response));
        response = response.withMessage(message);
        lastResponse = response;

        List<ToolRequestPart> calls = message.toolRequests();
        if (calls.isEmpty() || options.returnToolRequests()) {
          return finish(response, messages, calls.isEmpty() ? output.parse(message) : null);
        }
        if (iteration >= maxTurns) {
          throw BatonException.of(
              Status.ABORTED, "exceeded maximum tool call iterations (%d)", maxTurns);
        }
        List<ToolCalls.Answer> results = toolCalls.run(context, calls);
        if (anyInterrupt(results)) {
          Message revised = markInterrupts(message, results);
          return finish(
              response
                  .withMessage(revised)
                  .withFinish(FinishReason.INTERRUPTED, INTERRUPTED_MESSAGE),
              messages,
              null);
        }
        Message toolMessage = toolMessage(results);
        streamToolMessage(toolMessage, messageIndex + 1);
        messages = SharedList.append(SharedList.append(messages, message), toolMessage);
        messageIndex += 2;
      }
    }

    /** The conversation with the last model message's interrupts resolved by a resume. */
    private List<Message> applyResume(List<Message> messages, Resume resume) {
      ResumeValidation.validate(messages, resume);
      Message last = messages.get(messages.size() - 1);
      if (last.role() != Role.MODEL || last.toolRequests().isEmpty()) {
        throw BatonException.failedPrecondition(
            "cannot resume: the last message must be a model message with tool requests");
      }
      List<Message> resolved = toolCalls.resume(context, last, resume);
      List<Message> result = messages.subList(0, messages.size() - 1);
      for (Message message : resolved) {
        result = SharedList.append(result, message);
      }
      return result;
    }

    // The helpers below are loops rather than streams: a young process runs them interpreted or
    // barely compiled, where a stream pipeline costs several times a loop.

    private static List<ToolDefinition> definitions(Collection<Tool<?, ?>> tools) {
      List<ToolDefinition> definitions = new ArrayList<>(tools.size());
      for (Tool<?, ?> tool : tools) {
        definitions.add(tool.definition());
      }
      return List.copyOf(definitions);
    }

    private static boolean anyInterrupt(List<ToolCalls.Answer> results) {
      for (ToolCalls.Answer answer : results) {
        if (answer.result() instanceof ToolResult.Interrupt) {
          return true;
        }
      }
      return false;
    }

    private static boolean lacksRef(Message message) {
      for (Part part : message.content()) {
        if (part instanceof ToolRequestPart request && request.toolRequest().ref() == null) {
          return true;
        }
      }
      return false;
    }

    /** The run's result: {@code history} and the response's message, amended here. */
    private GenerateResponse finish(
        ModelResponse response, List<Message> history, @Nullable JsonNode parsed) {
      Message amended = run.amendFinal(requireMessage(response));
      return GenerateResponse.of(
              complete(response.withMessage(amended)), SharedList.append(history, amended))
          .withTotalUsage(totalUsage)
          .withOutput(parsed);
    }

    private static ModelResponse complete(ModelResponse response) {
      return response
          .withUsage(response.usage() == null ? GenerationUsage.EMPTY : response.usage())
          .withCustom(response.custom() == null ? Json.object() : response.custom());
    }

    /**
     * Stops the run when a check said so. The partial response keeps the conversation as it stands
     * and the run's last model message, amended as a final message is: the last this call made, or,
     * before its first model call, the one it resumes; a new run stopped before its first model
     * call answers with an empty message.
     */
    private void stopIf(GenerateRun.@Nullable Stop stop, List<Message> history) {
      if (stop == null) {
        return;
      }
      List<Message> conversation = new ArrayList<>(history);
      boolean resumes = options.resume() != null && !options.resume().isEmpty();
      int last = lastResponse != null || resumes ? conversation.size() - 1 : -1;
      while (last >= 0 && conversation.get(last).role() != Role.MODEL) {
        last--;
      }
      ModelResponse partial;
      if (last < 0) {
        partial = ModelResponse.of(new Message(Role.MODEL, List.of()), null);
      } else {
        Message amended = run.amendFinal(conversation.get(last));
        conversation.set(last, amended);
        partial =
            lastResponse == null
                ? ModelResponse.of(amended, null)
                : lastResponse.withMessage(amended);
      }
      BatonException exception =
          GenerateRun.stopWith(
              stop,
              GenerateResponse.of(complete(partial), conversation).withTotalUsage(totalUsage));
      stopped = exception;
      throw exception;
    }

    /**
     * The innermost link of the generate chain: the model call, through the model hooks. It notes
     * the history it is given, which the loop continues from.
     */
    private BiFunction<ActionContext, GenerateParams, ModelResponse> generateChain(
        List<Hooks> hooks, BiFunction<ActionContext, ModelParams, ModelResponse> modelChain) {
      BiFunction<ActionContext, GenerateParams, ModelResponse> chain =
          (ctx, params) -> {
            recordedHistory = params.history();
            stopIf(run.checkModelCall(), params.history());
            StreamCallback<ModelResponseChunk> chunks = modelChunks(params.messageIndex());
            ModelResponse response =
                modelChain.apply(ctx, ModelParams.of(model, params.request()).withCallback(chunks));
            return response.request() == null ? response.withRequest(params.request()) : response;
          };
      for (int i = hooks.size() - 1; i >= 0; i--) {
        Hooks.WrapGenerate hook = hooks.get(i).wrapGenerate();
        if (hook != null) {
          BiFunction<ActionContext, GenerateParams, ModelResponse> inner = chain;
          chain = (ctx, params) -> hook.apply(ctx, params, inner);
        }
      }
      return chain;
    }

    /** The model call through the model hooks; each call's usage is reported as it returns. */
    private BiFunction<ActionContext, ModelParams, ModelResponse> modelChain(List<Hooks> hooks) {
      BiFunction<ActionContext, ModelParams, ModelResponse> chain =
          (ctx, params) -> {
            ModelResponse response = params.model().run(ctx, params.request(), params.callback());
            record(ctx, params.model().name(), response.usage());
            return response;
          };
      for (int i = hooks.size() - 1; i >= 0; i--) {
        Hooks.WrapModel hook = hooks.get(i).wrapModel();
        if (hook != null) {
          BiFunction<ActionContext, ModelParams, ModelResponse> inner = chain;
          chain = (ctx, params) -> hook.apply(ctx, params, inner);
        }
      }
      return chain;
    }

    private static BiFunction<ActionContext, ToolParams, ToolResult> toolChain(List<Hooks> hooks) {
      BiFunction<ActionContext, ToolParams, ToolResult> chain = ToolCalls::runTool;
      for (int i = hooks.size() - 1; i >= 0; i--) {
        Hooks.WrapTool hook = hooks.get(i).wrapTool();
        if (hook != null) {
          BiFunction<ActionContext, ToolParams, ToolResult> inner = chain;
          chain = (ctx, params) -> hook.apply(ctx, params, inner);
        }
      }
      return chain;
    }

    private void record(ActionContext ctx, String model, @Nullable GenerationUsage usage) {
      if (usage == null) {
        return;
      }
      synchronized (this) {
        totalUsage = totalUsage.plus(usage);
      }
      UsageListeners.report(ctx, model, usage);
    }

    private StreamCallback<ModelResponseChunk> modelChunks(int messageIndex) {
      StreamCallback<ModelResponseChunk> sink = options.onChunk();
      if (sink.isDiscarding()) {
        return sink;
      }
      return chunk ->
          sink.onChunk(
              chunk
                  .withIndex(messageIndex)
                  .withRole(chunk.role() == null ? Role.MODEL : chunk.role()));
    }

    private void streamToolMessage(Message toolMessage, int index) {
      if (!options.onChunk().isDiscarding()) {
        options
            .onChunk()
            .onChunk(ModelResponseChunk.of(Role.TOOL, toolMessage.content()).withIndex(index));
      }
    }

    private static Message requireMessage(ModelResponse response) {
      Message message = response.message();
      if (message == null) {
        throw BatonException.internal("the model returned a response without a message", null);
      }
      return message;
    }

    /** Gives every tool request a ref, so parallel calls to one tool can be told apart. */
    private static Message withRefs(Message message) {
      if (!lacksRef(message)) {
        return message;
      }
      List<Part> content = new ArrayList<>();
      for (Part part : message.content()) {
        if (part instanceof ToolRequestPart request && request.toolRequest().ref() == null) {
          String ref = RandomIds.uuid();
          content.add(new ToolRequestPart(request.toolRequest().withRef(ref), request.metadata()));
        } else {
          content.add(part);
        }
      }
      return message.withContent(content);
    }

    /**
     * The model message with each interrupted request marked {@code metadata.interrupt} and each
     * completed sibling's output kept in {@code metadata.pendingOutput}, for reuse on resume.
     */
    private static Message markInterrupts(Message message, List<ToolCalls.Answer> results) {
      List<Part> content = new ArrayList<>();
      int call = 0;
      for (Part part : message.content()) {
        if (!(part instanceof ToolRequestPart request)) {
          content.add(part);
          continue;
        }
        ObjectNode metadata =
            switch (results.get(call++).result()) {
              case ToolResult.Interrupt interrupt ->
                  Metadata.with(request.metadata(), "interrupt", interrupt.data());
              case ToolResult.Output out ->
                  Metadata.with(request.metadata(), "pendingOutput", out.output());
            };
        content.add(request.withMetadata(metadata));
      }
      return message.withContent(content);
    }

    /** The tool message of calls that all produced output: their parts, built as they ran. */
    private static Message toolMessage(List<ToolCalls.Answer> results) {
      List<Part> responses = new ArrayList<>(results.size());
      for (ToolCalls.Answer answer : results) {
        responses.add(Objects.requireNonNull(answer.response()));
      }
      return new Message(Role.TOOL, responses);
    }

    private static List<Hooks> buildHooks(ActionContext context, List<Middleware> use) {
      List<Hooks> hooks = new ArrayList<>();
      for (Middleware middleware : use) {
        Hooks built;
        try {
          built = middleware.newHooks(context);
        } catch (BatonException e) {
          throw new BatonException(
              e.status(),
              "failed to build middleware \"" + middleware.name() + "\": " + e.getMessage(),
              e.details(),
              e.isPublic(),
              e);
        } catch (RuntimeException e) {
          // Not public: an arbitrary exception's message may say more than a client should see.
          throw new BatonException(
              Status.INVALID_ARGUMENT,
              "failed to build middleware \"" + middleware.name() + "\": " + e.getMessage(),
              null,
              false,
              e);
        }
        if (built == null) {
          throw BatonException.internal(
              "middleware \"" + middleware.name() + "\" built no hooks", null);
        }
        hooks.add(built);
      }
      return hooks;
    }

    private static Map<String, Tool<?, ?>> declaredTools(
        Registry registry, GenerateOptions options) {
      Map<String, Tool<?, ?>> tools = new LinkedHashMap<>();
      for (String name : options.toolNames()) {
        addDeclared(tools, Tool.lookup(registry, name));
      }
      for (Tool<?, ?> tool : options.tools()) {
        addDeclared(tools, tool);
      }
      return tools;
    }

    private static void addDeclared(Map<String, Tool<?, ?>> tools, Tool<?, ?> tool) {
      if (tools.putIfAbsent(tool.name(), tool) != null) {
        throw BatonException.invalidArgument("duplicate tool \"%s\"", tool.name());
      }
    }

    /**
     * Adds the middleware tools to {@code tools} and returns a context whose registry is a child
     * holding them, so nothing outside this call sees them.
     */
    private static ActionContext withMiddlewareTools(
        ActionContext caller, List<Hooks> hooks, Map<String, Tool<?, ?>> tools) {
      Registry child = null;
      for (Hooks h : hooks) {
        for (Tool<?, ?> tool : h.tools()) {
          if (tools.putIfAbsent(tool.name(), tool) != null) {
            throw BatonException.invalidArgument(
                "tool \"%s\" is contributed by middleware but already declared elsewhere",
                tool.name());
          }
          if (child == null) {
            child = DefaultRegistry.child(caller.registry());
          }
          child.register(tool);
        }
      }
      return child == null ? caller : caller.withRegistry(child);
    }

    private static @Nullable JsonNode mergeConfig(
        @Nullable JsonNode base, @Nullable JsonNode overrides) {
      if (base == null) {
        return overrides;
      }
      if (overrides == null || !base.isObject() || !overrides.isObject()) {
        return overrides == null ? base : overrides;
      }
      ObjectNode merged = (ObjectNode) base.deepCopy();
      overrides.properties().forEach(e -> merged.set(e.getKey(), e.getValue()));
      return merged;
    }
  }
}
