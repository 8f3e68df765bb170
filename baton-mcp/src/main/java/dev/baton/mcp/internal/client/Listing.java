package dev.baton.mcp.internal.client;

import dev.baton.core.Cancellation;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What the server lists (its prompts, its resources), immutable: fetched on first use and kept
 * while the list's version stays the same. The connection counts the versions: each notification
 * from the server that the list changed bumps it.
 *
 * <p>Thread-safe without locks: the version is read before a fetch, so a fetch that overlaps a
 * change is kept under the old version and the next caller fetches again.
 */
final class Listing<T> {
  private record Kept<T>(long version, T value) {}

  private final LongSupplier version;
  private final Function<Cancellation, T> fetch;
  private volatile @Nullable Kept<T> kept;

  Listing(LongSupplier version, Function<Cancellation, T> fetch) {
    this.version = version;
    this.fetch = fetch;
  }

  T get(Cancellation cancellation) {
    long current = version.getAsLong();
    Kept<T> last = kept;
    if (last != null && last.version() == current) {
      return last.value();
    }
    T fetched = fetch.apply(cancellation);
    kept = new Kept<>(current, fetched);
    return fetched;
  }
}
