package dev.baton;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The command that runs a test class's {@code main} in a JVM of its own, on the tests' class path.
 */
public final class TestJvm {
  private TestJvm() {}

  /** {@code java [options] -cp <the tests' class path> <main> [args]}. */
  public static List<String> command(Class<?> main, List<String> options, List<String> args)
      throws URISyntaxException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.add("-cp");
    command.add(classPath(main));
    command.add(main.getName());
    command.addAll(args);
    return command;
  }

  /** The class path of the tests, whether they run on the class path or the module path. */
  private static String classPath(Class<?> main) throws URISyntaxException {
    return Stream.of(
            System.getProperty("java.class.path"),
            System.getProperty("jdk.module.path"),
            location(main),
            location(Baton.class))
        .filter(Objects::nonNull)
        .filter(entry -> !entry.isEmpty())
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static String location(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
