package dev.baton.agent;

import org.jspecify.annotations.Nullable;

/**
 * The read-modify-write step of {@link SnapshotWriter#saveSnapshot}: given the existing row (or
 * null), the row to write (or null to write nothing). It may run more than once under optimistic
 * concurrency, so it must be pure: no side effects, the same answer for the same input.
 *
 * <p>Stores call it while holding their write lock: it must be quick and must not call the store.
 */
@FunctionalInterface
public interface SnapshotUpdate {
  @Nullable SessionSnapshot apply(@Nullable SessionSnapshot existing);
}
