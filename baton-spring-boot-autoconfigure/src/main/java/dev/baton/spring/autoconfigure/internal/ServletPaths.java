package dev.baton.spring.autoconfigure.internal;

/** The servlet mapping of the served routes. */
public final class ServletPaths {
  private ServletPaths() {}

  /**
   * The path mapping ({@code /baton/*}) that serves everything under {@code basePath}, which is
   * {@code /} or an absolute path; a trailing slash is dropped.
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
    return path.equals("/") ? "/*" : path + "/*";
  }
}
