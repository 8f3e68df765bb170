package dev.baton.server;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium driven by Selenium, for the console's browser tests. It runs Debian's {@code
 * chromium} with its {@code chromedriver}, both named by path, so that Selenium Manager is never
 * asked to find (or download) a driver. Without them the tests are skipped, unless {@code
 * BATON_REQUIRE_BROWSER=true} (which CI sets) makes that a failure. {@code BATON_CHROMIUM} and
 * {@code BATON_CHROMEDRIVER} point elsewhere.
 *
 * <p>Each scenario saves what the page showed under {@code target/console-screenshots/}.
 */
final class ConsoleBrowser implements AutoCloseable {
  static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
  private static final Duration PATIENCE = Duration.ofSeconds(15);

  final ChromeDriver driver;

  private ConsoleBrowser(ChromeDriver driver) {
    this.driver = driver;
  }

  /** Starts the browser, or skips the test (fails it in CI) when there is none. */
  static ConsoleBrowser start() {
    Path chromium = Path.of(setting("BATON_CHROMIUM", "/usr/bin/chromium"));
    Path chromedriver = Path.of(setting("BATON_CHROMEDRIVER", "/usr/bin/chromedriver"));
    if (!Files.isExecutable(chromium) || !Files.isExecutable(chromedriver)) {
      String why =
          "the console's browser tests need Chromium at "
              + chromium
              + " and its driver at "
              + chromedriver;
      if ("true".equalsIgnoreCase(System.getenv("BATON_REQUIRE_BROWSER"))) {
        fail(why + " (BATON_REQUIRE_BROWSER=true makes this a failure)");
      }
      Assumptions.abort(why + "; install Debian's chromium and chromium-driver to run them");
    }
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromedriver.toFile())
            .usingAnyFreePort()
            .build();
    ChromeOptions options =
        new ChromeOptions()
            .setBinary(chromium.toFile())
            .addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--window-size=1440,1000",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync");
    return new ConsoleBrowser(new ChromeDriver(service, options));
  }

  private static String setting(String name, String otherwise) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? otherwise : value;
  }

  /**
   * Loads the page at {@code url} afresh (from a blank page, so that a new hash is a new
   * navigation) and waits until the console has rendered its view.
   */
  void open(URI url) {
    driver.get("about:blank");
    driver.get(url.toString());
    awaitRendered();
  }

  /** Waits until the console's current view has rendered. */
  void awaitRendered() {
    until(
        ExpectedConditions.attributeToBe(By.tagName("body"), "data-ready", "true"),
        "the console rendered its view");
  }

  /** The elements with a data-testid. */
  List<WebElement> all(String testId) {
    return driver.findElements(byTestId(testId));
  }

  /** Waits for the element with a data-testid to be visible. */
  WebElement visible(String testId) {
    return until(ExpectedConditions.visibilityOfElementLocated(byTestId(testId)), testId);
  }

  static By byTestId(String testId) {
    return By.cssSelector("[data-testid='" + testId + "']");
  }

  /** Waits until {@code condition} holds (a WebDriverWait, never a sleep). */
  <T> T until(Function<? super WebDriver, T> condition, String what) {
    // The console re-renders a view when a live event arrives, so an element found a moment ago
    // may have been replaced: the condition is tried again.
    return new WebDriverWait(driver, PATIENCE)
        .withMessage(what)
        .ignoring(StaleElementReferenceException.class)
        .until(condition);
  }

  /** Runs a script in the page and answers its value. */
  Object script(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /** Saves what the page shows as {@code target/console-screenshots/<name>.png}. */
  Path screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    driver.quit();
  }
}
