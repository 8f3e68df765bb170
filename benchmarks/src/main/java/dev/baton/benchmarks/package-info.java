/** JMH benchmarks of Baton's hot paths, run with {@code ./benchmarks/run}. */
@NullMarked
package dev.baton.benchmarks;

import org.jspecify.annotations.NullMarked;
