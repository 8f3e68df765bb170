/**
 * Generation: messages, models, tools, the tool loop, prompts and middleware.
 *
 * <ul>
 *   <li>{@link dev.baton.ai.GenerateOptions} describes one generate call (model, messages, tools,
 *       output, middleware) and {@link dev.baton.ai.GenerateResponse} is its result; run one with
 *       {@code baton.generate(options)}. The call runs the tool loop: the model asks for tools, the
 *       calls of one turn run in parallel, their answers go back, until the model answers.
 *   <li>{@link dev.baton.ai.Message} and its {@link dev.baton.ai.Part}s are Genkit's wire format,
 *       immutable records shared freely between threads.
 *   <li>{@link dev.baton.ai.Tool}: a typed or raw-JSON function a model may call; it can pause the
 *       loop with an interrupt for the caller to answer ({@link dev.baton.ai.Resume}).
 *   <li>{@link dev.baton.ai.Middleware} wraps a generate call with {@link dev.baton.ai.Hooks}:
 *       interceptors around each iteration, model call and tool call, and tools of its own.
 *   <li>{@link dev.baton.ai.InlinePrompt}: a prompt in code, rendered by an agent on every turn or
 *       registered with {@code baton.definePrompt}.
 * </ul>
 *
 * <pre>{@code
 * record City(String city) {}
 * record Weather(String city, int celsius) {}
 * Tool<City, Weather> weather = baton.defineTool("weather", "Current weather in a city",
 *     City.class, Weather.class, (ctx, in) -> new Weather(in.city(), 21));
 *
 * GenerateResponse response = baton.generate(GenerateOptions.builder()
 *     .model("googleai/gemini-flash-latest")
 *     .prompt("Weather in Paris?")
 *     .tools(weather)
 *     .use(new Retry())
 *     .build());
 * }</pre>
 */
@NullMarked
package dev.baton.ai;

import org.jspecify.annotations.NullMarked;
