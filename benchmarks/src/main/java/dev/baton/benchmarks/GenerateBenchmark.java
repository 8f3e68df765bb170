package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Tool;
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

/** One generate call with one tool round: model, typed tool, model. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class GenerateBenchmark {
  public record City(String city) {}

  public record Weather(String city, int celsius) {}

  @Param({"off", "spans", "content"})
  public String tracing;

  private Baton baton;
  private GenerateOptions options;

  @Setup
  public void setUp() {
    baton = Fixtures.baton(tracing);
    Fixtures.toolModel(baton, "bench");
    Tool<City, Weather> lookup =
        baton.defineTool(
            "lookup",
            "Weather by city",
            City.class,
            Weather.class,
            (ctx, in) -> new Weather(in.city(), 18));
    options =
        GenerateOptions.builder()
            .model("bench")
            .system("Be brief.")
            .prompt("Weather in Paris?")
            .tools(lookup)
            .build();
  }

  @Benchmark
  public GenerateResponse toolRound() {
    return baton.generate(options);
  }
}
