package dev.baton.coldstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A first call loads only what it uses: no JSON schema generator or validator when nothing has a
 * schema to infer or check, and no OpenTelemetry context storage or metric instruments with tracing
 * off. They cost hundreds of classes and much of a cold start. Each case runs in a fresh class
 * loader, since the classes every other test loaded stay loaded in this JVM.
 */
class ColdStartTest {
  private static final String SCHEMA_GENERATOR =
      "com.github.victools.jsonschema.generator.SchemaGenerator";
  private static final String SCHEMA_VALIDATOR = "com.networknt.schema.SchemaRegistry";
  private static final String CONTEXT_STORAGE = "io.opentelemetry.context.LazyStorage";
  private static final String METER = "io.opentelemetry.api.metrics.Meter";

  @Test
  void aTurnOfAnAgentWithoutToolsLoadsNoSchemaMachineryAndNoTracing() throws Exception {
    try (Isolated loader = new Isolated()) {
      Object agent = loader.run("oneShotTurn");

      assertThat(loader.loaded(SCHEMA_GENERATOR)).as("%s loaded", SCHEMA_GENERATOR).isFalse();
      assertThat(loader.loaded(SCHEMA_VALIDATOR)).as("%s loaded", SCHEMA_VALIDATOR).isFalse();
      assertThat(loader.loaded(CONTEXT_STORAGE)).as("%s loaded", CONTEXT_STORAGE).isFalse();
      assertThat(loader.loaded(METER)).as("%s loaded", METER).isFalse();

      // The schemas are still there for whoever asks, such as the reflection API.
      Object descriptor = agent.getClass().getMethod("descriptor").invoke(agent);
      Object inputSchema = descriptor.getClass().getMethod("inputSchema").invoke(descriptor);
      assertThat(inputSchema.toString()).contains("\"message\"");
      assertThat(loader.loaded(SCHEMA_GENERATOR)).as("%s loaded", SCHEMA_GENERATOR).isTrue();
    }
  }

  @Test
  void aToolRoundWithAToolWithoutSchemasLoadsNoSchemaMachinery() throws Exception {
    try (Isolated loader = new Isolated()) {
      loader.run("toolWithoutSchema");

      assertThat(loader.loaded(SCHEMA_GENERATOR)).as("%s loaded", SCHEMA_GENERATOR).isFalse();
      assertThat(loader.loaded(SCHEMA_VALIDATOR)).as("%s loaded", SCHEMA_VALIDATOR).isFalse();
      assertThat(loader.loaded(CONTEXT_STORAGE)).as("%s loaded", CONTEXT_STORAGE).isFalse();
    }
  }

  /** Loads Baton and its dependencies afresh from this test's class path. */
  private static final class Isolated extends URLClassLoader {
    Isolated() throws MalformedURLException {
      super("cold-start", classPath(), ClassLoader.getPlatformClassLoader());
    }

    Object run(String firstCall) throws ReflectiveOperationException {
      // Service lookups (OpenTelemetry's context storage, say) go through the context loader.
      Thread thread = Thread.currentThread();
      ClassLoader previous = thread.getContextClassLoader();
      thread.setContextClassLoader(this);
      try {
        return loadClass(FirstCalls.class.getName()).getMethod(firstCall).invoke(null);
      } finally {
        thread.setContextClassLoader(previous);
      }
    }

    boolean loaded(String className) {
      return findLoadedClass(className) != null;
    }

    private static URL[] classPath() throws MalformedURLException {
      List<URL> urls = new ArrayList<>();
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        urls.add(new File(entry).toURI().toURL());
      }
      return urls.toArray(URL[]::new);
    }
  }
}
