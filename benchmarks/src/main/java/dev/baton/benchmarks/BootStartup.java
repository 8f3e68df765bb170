package dev.baton.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts one of {@link SpringAdapterRound}'s Boot applications: quiet (no banner, warnings only),
 * on a free loopback port. With {@code --exit-when-ready} it prints {@code
 * {"startupMillis":…,"cpuMillis":…}}, the wall time from the JVM's start until {@code
 * SpringApplication.run} returned (the context refreshed, the server listening, the application
 * ready) and the CPU time the process spent meanwhile, on all its threads, then exits: a start
 * measured in a fresh process. On a busy machine the CPU time moves less than the wall time.
 */
public final class BootStartup {
  private BootStartup() {}

  /** Starts {@code application} and returns its context, or exits once ready when asked to. */
  public static ConfigurableApplicationContext run(Class<?> application, String... args) {
    SpringApplication spring = new SpringApplication(application);
    spring.setBannerMode(Banner.Mode.OFF);
    spring.setLogStartupInfo(false);
    spring.setDefaultProperties(
        Map.of("server.port", "0", "server.address", "127.0.0.1", "logging.level.root", "warn"));
    ConfigurableApplicationContext context = spring.run(args);
    if (Arrays.asList(args).contains("--exit-when-ready")) {
      long millis =
          System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
      long cpuNanos =
          ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
              .getProcessCpuTime();
      System.out.printf(
          Locale.ROOT, "{\"startupMillis\":%d,\"cpuMillis\":%d}%n", millis, cpuNanos / 1_000_000);
      System.out.flush();
      System.exit(SpringApplication.exit(context));
    }
    return context;
  }
}
