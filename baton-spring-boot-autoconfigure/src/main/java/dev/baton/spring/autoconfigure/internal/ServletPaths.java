package dev.baton.spring.autoconfigure.internal;

/** The servlet mapping of the served routes. */
public final class ServletPaths {
  private ServletPaths() {}

  /**
   * The path mapping ({@code /baton/*}) that serves everything under {@code basePath}, an absolute
   * path other than the root; a trailing slash is dropped. The root is refused: mapped at {@code
   * /*}, the servlet would take every request from Spring MVC's dispatcher, Actuator's included.
   *
   * @throws IllegalArgumentException when the base path is not such a path
   */
  public static String mapping(String basePath) {
    String path = basePath.strip();
    while (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (!path.startsWith("/")
        || path.contains("*")
        || path.contains("?")
        || path.contains("#")
        || path.contains("//")) {
      throw new IllegalArgumentException(
          "baton.server.base-path must be an absolute path such as /baton, not '" + basePath + "'");
    }
    if (path.equals("/")) {
      throw new IllegalArgumentException(
          "baton.server.base-path must not be /: mapped at the root, Baton's servlet would take"
              + " every request from the application's other endpoints (Spring MVC, Actuator);"
              + " use a path such as /baton");
    }
    return path + "/*";
  }
}
