package dev.baton.core;

/**
 * Contributes actions and values to a Baton instance when it is built: a model provider registers
 * its models (or a resolver that creates them on demand), a middleware plugin its descriptors.
 *
 * <p>{@link #init} runs once per instance, in the order plugins were added, before {@code build()}
 * returns. A plugin must not keep per-instance state in static fields: two instances in one JVM are
 * independent.
 *
 * <p>{@link #init} runs on the thread that builds the instance.
 *
 * <p>A plugin that holds resources (connections, threads, child processes) implements {@link
 * AutoCloseable} too: the instance's {@code close()} closes it once the agent work in flight has
 * ended, after the plugins added later, so a plugin closes before those it was added after.
 */
public interface Plugin {
  /** A stable name, such as {@code googleai}; two plugins of one instance must differ. */
  String name();

  /** Registers what the plugin provides. */
  void init(Registry registry);
}
