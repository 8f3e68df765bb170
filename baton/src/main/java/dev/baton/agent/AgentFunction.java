package dev.baton.agent;

/**
 * The body of a custom agent: it drives its turns through {@link AgentRunner#run} and returns what
 * the invocation reports.
 *
 * <pre>{@code
 * AgentFunction echo = runner -> {
 *   runner.run((ctx, input) -> {
 *     runner.session().addMessage(Message.model("echo: " + input.message().text()));
 *     return AgentFinishReason.STOP;
 *   });
 *   return runner.result();
 * };
 * }</pre>
 *
 * <p>Called once per invocation, on that invocation's own thread; the runner it gets is
 * thread-safe.
 */
@FunctionalInterface
public interface AgentFunction {
  AgentResult apply(AgentRunner runner);
}
