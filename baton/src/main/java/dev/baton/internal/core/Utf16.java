package dev.baton.internal.core;

/**
 * Whether text is well-formed UTF-16: every surrogate is half of a high-low pair. Text that is not
 * cannot be encoded in UTF-8 as it is: the JDK's encoders put {@code ?} in place of a lone
 * surrogate, so <code>"a&#92;ud800"</code> and {@code "a?"} would become the same key in a
 * database, a file name or a hash. Baton refuses such IDs and principals rather than let them alias
 * others.
 *
 * <p>Internal: not an API (see the package comment). Stateless and thread-safe.
 */
public final class Utf16 {
  private Utf16() {}

  /**
   * Whether {@code text} has no lone surrogate (a high one not followed by a low one, or the
   * reverse).
   */
  public static boolean isWellFormed(CharSequence text) {
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < length
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }
}
