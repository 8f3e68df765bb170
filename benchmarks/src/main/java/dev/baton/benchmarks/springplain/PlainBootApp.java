package dev.baton.benchmarks.springplain;

import dev.baton.benchmarks.BootStartup;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Boot application without Baton, of the same shape as {@link
 * dev.baton.benchmarks.springbaton.BatonBootApp}: Spring MVC on Tomcat and one controller. {@code
 * SpringAdapterRound} starts it with the Baton starter's jars left off the class path.
 */
@SpringBootApplication
public class PlainBootApp {
  /** Starts the application; {@code --exit-when-ready} measures its start (see BootStartup). */
  public static void main(String[] args) {
    BootStartup.run(PlainBootApp.class, args);
  }

  /** The application's own endpoint. */
  @RestController
  static class Hello {
    @GetMapping("/hello")
    String hello() {
      return "hello";
    }
  }
}
