package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.Json;
import dev.baton.middleware.compression.ContextCompression;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ContextCompression without a summariser over a long history of about 200 tokens (800 characters)
 * a message: a user turn, a tool call, its result and the model's answer, repeated, with one call
 * in ten repeating an earlier one. The budget of 50,000 tokens is a quarter of the context at 1,000
 * messages, so a generate call caps, estimates, deduplicates, truncates and drops down to the
 * newest turn. {@code compress} is that generate call (the model answers at once); {@code resolve}
 * derives the view from the compressed history it returns.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ContextCompressionBenchmark {
  private static final int CHARS = 800;

  @Param({"1000", "10000"})
  public int messages;

  private Baton baton;
  private GenerateOptions options;
  private List<Message> compressed;

  @Setup
  public void setUp() {
    baton = Fixtures.baton("off");
    ModelResponse answer = ModelResponse.of(Message.model("Done."), FinishReason.STOP);
    baton.defineModel("bench", ModelInfo.full("bench"), (ctx, request, stream) -> answer);
    options =
        GenerateOptions.builder()
            .model("bench")
            .system("You are a research assistant.")
            .messages(history(messages - 2))
            .prompt("Summarise what you found.")
            .use(
                ContextCompression.builder()
                    .maxInputTokens(50_000)
                    .dedupeToolResponses(ContextCompression.Dedupe.byNameAndInput())
                    .truncateToolResponses(ContextCompression.ToolTruncation.maxChars(200))
                    .build())
            .build();
    compressed = baton.generate(options).history();
  }

  /** {@code size} messages in rounds of four, each message about {@value #CHARS} characters. */
  private static List<Message> history(int size) {
    List<Message> history = new ArrayList<>(size);
    for (int i = 0; history.size() < size; i++) {
      String ref = "call-" + i;
      // One call in ten asks what the call ten rounds earlier asked.
      String query = text("query " + (i % 10 == 9 ? i - 9 : i) + " ", CHARS - 20);
      history.add(Message.user(text("question " + i + " ", CHARS)));
      history.add(
          new Message(
              Role.MODEL, List.of(Part.toolRequest("search", ref, Json.object().put("q", query)))));
      history.add(
          new Message(
              Role.TOOL,
              List.of(
                  Part.toolResponse(
                      "search", ref, Json.nodes().stringNode(text("result " + i + " ", CHARS))))));
      history.add(Message.model(text("answer " + i + " ", CHARS)));
    }
    return history.subList(0, size);
  }

  private static String text(String prefix, int length) {
    StringBuilder text = new StringBuilder(length).append(prefix);
    while (text.length() < length) {
      text.append("lorem ipsum dolor sit amet ");
    }
    return text.substring(0, length);
  }

  @Benchmark
  public GenerateResponse compress() {
    return baton.generate(options);
  }

  @Benchmark
  public List<Message> resolve() {
    return ContextCompression.resolveHistory(compressed);
  }
}
